import { describe, expect, it } from 'vitest';
import { FileParseError } from '../src/geo/parse-error.ts';
import {
  parseBdgdPoints,
  parseFiscalizacaoPoints,
  parseIpPoints,
  parseLptAgiltecPoints,
} from '../src/geo/point-files.ts';

function expectLineError(run: () => unknown, line: number, message: RegExp) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FileParseError);
    expect((error as FileParseError).line).toBe(line);
    expect((error as Error).message).toMatch(new RegExp(`^Linha ${line}: `));
    expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected a FileParseError');
}

describe('IP points (.txt)', () => {
  it('reads longitude; latitude; ids; sharing quantity (default 0)', () => {
    const points = parseIpPoints('-49.2733;-25.4284;CON-1;CIR-9;3\n-49.2701;-25.4301;CON-2;CIR-9\n');
    expect(points).toEqual([
      {
        coordenadas: [-25.4284, -49.2733],
        localizacao: { type: 'Point', coordinates: [-49.2733, -25.4284] },
        idConcessionaria: 'CON-1',
        idCircuito: 'CIR-9',
        quantidadeCompartilhamento: 3,
        carregadoBackoffice: true,
        coletado: false,
      },
      expect.objectContaining({ idConcessionaria: 'CON-2', quantidadeCompartilhamento: 0 }),
    ]);
  });

  it('copes with a BOM, CRLF, trailing spaces and decimal commas', () => {
    const points = parseIpPoints('\uFEFF-49,2733 ; -25,4284 ; A ; B ; 1  \r\n-49.27;-25.43;C;D;0\r\n\r\n');
    expect(points).toHaveLength(2);
    expect(points[0]?.coordenadas).toEqual([-25.4284, -49.2733]);
  });

  it('names the line of a missing column, a non-numeric coordinate or a point outside Brazil', () => {
    expectLineError(() => parseIpPoints('-49.27;-25.43;A;B\n-49.27;-25.43\n'), 2, /esperadas 4 colunas/);
    expectLineError(
      () => parseIpPoints('-49.27;-25.43;A;B\nabc;-25.43;A;B\n'),
      2,
      /longitude não é um número/,
    );
    expectLineError(
      () => parseIpPoints('-49.27;-25.43;A;B\n-49.27;-25.43;A;B\n2.35;48.85;A;B'),
      3,
      /fora do Brasil/,
    );
    // latitude and longitude swapped land in the ocean far from Brazil
    expectLineError(() => parseIpPoints('-25.43;-49.27;A;B'), 1, /fora do Brasil/);
  });

  it('refuses an empty file', () => {
    expect(() => parseIpPoints('\n\n')).toThrow(/nenhum ponto/);
  });
});

describe('BDGD points', () => {
  // Curitiba in SIRGAS 2000 / UTM 22S (cs2cs): E 673648.491, N 7186491.014
  it('converts x; y in the project fuso to lat/lng and numbers them', () => {
    const points = parseBdgdPoints(
      '111;Poste;673648.491;7186491.014\n112;transformador;673658.491;7186501.014\n',
      22,
    );
    expect(points[0]?.coordenadas[0]).toBeCloseTo(-25.4284, 6);
    expect(points[0]?.coordenadas[1]).toBeCloseTo(-49.2733, 6);
    expect(points.map((p) => [p.idConcessionaria, p.ativo, p.sequencial])).toEqual([
      ['111', 'Poste', 1],
      ['112', 'Transformador', 2],
    ]);
  });

  it('accepts the northing first, as the spec names the columns lat, lng', () => {
    const [point] = parseBdgdPoints('111;Poste;7186491.014;673648.491', 22);
    expect(point?.coordenadas[0]).toBeCloseTo(-25.4284, 6);
  });

  it('names the line of an unknown asset, a bad number or a wrong fuso', () => {
    expectLineError(
      () => parseBdgdPoints('1;Poste;673648;7186491\n2;Antena;673648;7186491', 22),
      2,
      /ativo desconhecido/,
    );
    expectLineError(() => parseBdgdPoints('1;Poste;x;7186491', 22), 1, /x não é um número/);
    // A northing of the northern hemisphere read as southern lands near the South Pole.
    expectLineError(() => parseBdgdPoints('1;Poste;673648.491;186491.014', 22), 1, /fora do Brasil/);
  });
});

describe('Fiscalização points', () => {
  it('reads the header-named columns in any order, UTM 22 band L by default', () => {
    const text = 'Y;X;barramento;tipo;placa\n7186491.014;673648.491;B1;Concreto;PL-77\n';
    const [point] = parseFiscalizacaoPoints(text);
    expect(point?.coordenadas[0]).toBeCloseTo(-25.4284, 6);
    expect(point).toMatchObject({
      barramento: 'B1',
      tipo: 'Concreto',
      placa: 'PL-77',
      medidor: '',
      faseConsumidor: '',
    });
  });

  it('refuses a header without x and y, naming line 1', () => {
    expectLineError(() => parseFiscalizacaoPoints('lat;lng;tipo\n1;2;3'), 1, /cabeçalho/);
  });
});

describe('LPT Agiltec', () => {
  it('skips the header row and reads the ten columns', () => {
    const text =
      'os;nome;cpf;email;telefone1;propriedade;comunidade;municipio;polo;regional\n' +
      '1001;Maria da Silva;123.456.789-00;maria@ex.com;(41) 99999-0000;Sítio Boa Vista;Santa Rita;Lapa;Polo 1;Sul\n';
    expect(parseLptAgiltecPoints(text)).toEqual([
      {
        os: '1001',
        nome: 'Maria da Silva',
        cpf: '123.456.789-00',
        email: 'maria@ex.com',
        telefone1: '(41) 99999-0000',
        propriedade: 'Sítio Boa Vista',
        comunidade: 'Santa Rita',
        municipio: 'Lapa',
        polo: 'Polo 1',
        regional: 'Sul',
      },
    ]);
  });

  it('names the line that lacks columns', () => {
    expectLineError(() => parseLptAgiltecPoints('cabecalho\n1;2;3'), 2, /esperadas 10 colunas/);
  });
});
