// The CSV exports as a Brazilian opens them (issue 20, 'Spreadsheets in pt-BR'): LibreOffice Calc imports each
// file as pt-BR (language 1046, which reads numbers and dates as Excel in pt-BR does) and saves it as xlsx, read
// back by exceljs. UTM, heights, distances and diameters must land as numbers equal to what the database stores,
// integers as numbers, dates as dates, text as text; `?decimal=ponto` keeps points for GIS tools.
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Celula,
  createScratch,
  IDIOMA,
  parseCsv,
  readSheet,
  type Scratch,
  sofficePath,
  spreadsheetConvert,
  unzipEntry,
} from './support/files.ts';
import {
  createFieldProject,
  createTestContext,
  type FieldProject,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const CENTRO = { lat: -25.435, lng: -49.275 };

/** America/Sao_Paulo has been UTC−3 all year since 2019: a local time of November 2026 as an instant. */
const local = (dia: number, hora: number, minuto = 0) => Date.UTC(2026, 10, dia, hora + 3, minuto);

/** A date cell: the local date and time the spreadsheet shows, as exceljs gives it (in UTC). */
const data = (dia: number, hora = 0, minuto = 0): Celula => ({
  data: new Date(Date.UTC(2026, 10, dia, hora, minuto)),
});
/** A time cell (PRIMEIRO, ULTIMO): a time of the spreadsheet's day 0, 30 December 1899. */
const hora = (horas: number, minutos: number): Celula => ({
  data: new Date(Date.UTC(1899, 11, 30, horas, minutos)),
});
const numero = (value: number): Celula => ({ numero: value });
const texto = (value: string): Celula => ({ texto: value });

/** A date cell to the second: exceljs turns the day fraction into milliseconds with a float's error. */
function celula(cell: Celula | undefined): Celula | undefined {
  if (cell && 'data' in cell) return { data: new Date(Math.round(cell.data.getTime() / 1000) * 1000) };
  return cell;
}

// Locally the test needs LibreOffice installed; on CI (.ci/run installs it) a missing soffice fails it.
const semPlanilha = sofficePath() === undefined && process.env.CI !== 'true';
if (semPlanilha) {
  console.warn(
    'exports-planilha: skipped, soffice is not installed (apt-get install libreoffice-calc-nogui)',
  );
}

describe.skipIf(semPlanilha)('CSV exports opened by a spreadsheet in pt-BR', () => {
  let ctx: TestContext;
  let scratch: Scratch;
  let campo: FieldProject;
  /** Record ids by the name this file gives them. */
  const ids: Record<string, string> = {};
  /** What the database stores of each record: UTM as numeric text, the fields as sent. */
  const stored = new Map<string, { utm_e: string; utm_n: string; dados: Record<string, string> }>();
  /** The files' raw text, and their sheets: as pt-BR imports the default files, as en-US the `ponto` ones. */
  const raw: Record<string, string> = {};
  const sheets: Record<string, Record<string, Celula>[]> = {};

  async function download(url: string): Promise<Buffer> {
    const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie: campo.admin } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.rawPayload;
  }

  const idOf = (row: Record<string, Celula>) => (row.ID && 'texto' in row.ID ? row.ID.texto : '');

  /** The sheet's row of a record, each date cell to the second. */
  function rowOf(sheet: string, nome: string): Record<string, Celula | undefined> {
    const row = sheets[sheet]?.find((candidate) => idOf(candidate) === ids[nome]);
    if (!row) throw new Error(`${nome} not in ${sheet}`);
    return Object.fromEntries(Object.entries(row).map(([header, cell]) => [header, celula(cell)]));
  }

  /** UTM_E and UTM_N of every row: numbers equal to what the record stores. */
  function expectUtm(sheet: string) {
    const rows = sheets[sheet] ?? [];
    expect(rows.length, sheet).toBeGreaterThan(0);
    for (const row of rows) {
      const id = idOf(row);
      const record = stored.get(id);
      expect(record, `${sheet}: record ${id}`).toBeDefined();
      expect(row.UTM_E, `${sheet} UTM_E`).toEqual(numero(Number(record?.utm_e)));
      expect(row.UTM_N, `${sheet} UTM_N`).toEqual(numero(Number(record?.utm_n)));
    }
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    scratch = createScratch();
    campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Planilha',
      fluxos: ['hc', 'poste', 'arvore', 'bdgd'],
      firstName: 'João',
    });
    let n = 0;
    const enviar = async (
      nome: string,
      apiPath: string,
      at: number,
      fields: Record<string, string>,
      precisao?: number,
    ) => {
      const id = crypto.randomUUID();
      n += 1;
      const response = await uploadRecord(
        ctx.app,
        apiPath,
        {
          id,
          projeto: campo.projeto,
          coordenadas: JSON.stringify({ lat: CENTRO.lat + n * 1e-4, lng: CENTRO.lng - n * 1e-4 }),
          dataHora: String(at),
          ...(precisao === undefined ? {} : { precisao: String(precisao) }),
          ...fields,
        },
        { cookie: campo.tecnicoCookie },
      );
      expect(response.statusCode, `${nome}: ${response.body}`).toBe(201);
      ids[nome] = id;
    };
    const poste = {
      tipo: 'CONCRETO CIRCULAR',
      carga: '600',
      tipoRedeEletrica: 'MISTA',
      aterramento: 'true',
      equipamentoRedeEnergia: 'TRANSFORMADOR',
    };
    await enviar('poste1', 'poste', local(21, 8), { ...poste, altura: '10.5' }, 4);
    await enviar('poste2', 'poste', local(21, 8, 30), { ...poste, altura: '9' }, 5);
    await enviar('unidade1', 'unidade', local(21, 9), {
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      quantidade: '1',
      numero: '10',
      // Text that looks like a number with dots stays text.
      complemento1: '1.2.3',
      drop: ids.poste1 ?? '',
    });
    await enviar('arvore1', 'arvore', local(21, 10), {
      contatoRede: JSON.stringify(['Baixa Tensão']),
      projecaoRede: JSON.stringify([]),
      distanciaRedeBT: '0.8',
      diametroTronco: '35,5',
      fenotipo: 'Ipê-amarelo',
      altura: '4.5',
    });
    await enviar('arvore2', 'arvore', local(22, 7, 45), {
      contatoRede: JSON.stringify([]),
      projecaoRede: JSON.stringify([]),
      altura: '12',
    });
    // An id that reads like a decimal: the column holds text, so it is written as typed.
    await enviar('bdgd1', 'bdgd', local(21, 11), { ativo: 'Poste', idConcessionaria: '1.5' });

    for (const row of await ctx.db.query<{
      id: string;
      utm_e: string;
      utm_n: string;
      dados: Record<string, string>;
    }>('SELECT id::text, utm_e::text, utm_n::text, dados FROM registros WHERE projeto = $1', [
      campo.projeto,
    ])) {
      stored.set(row.id, row);
    }

    const extrator = (arquivo: string) => `/api/extrator/${campo.projeto}/${arquivo}`;
    const tecnicoDia = `/api/relatorio/${campo.projeto}/${campo.tecnico.id}.csv?data=2026-11-21`;
    const arquivos: Record<string, string> = {
      unidades: extrator('unidades.csv'),
      postes: extrator('postes.csv'),
      'postes-simplificado': extrator('postes-simplificado.csv'),
      vegetacao: extrator('vegetacao.csv'),
      'vegetacao-producao': extrator('vegetacao-producao.csv'),
      'tecnico-dia': tecnicoDia,
      produtividade: `/api/relatorio/${campo.projeto}/produtividade.csv`,
    };
    const ponto: Record<string, string> = {
      'postes-ponto': extrator('postes.csv?decimal=ponto'),
      'vegetacao-ponto': extrator('vegetacao.csv?decimal=ponto'),
      'tecnico-dia-ponto': `${tecnicoDia}&decimal=ponto`,
      'produtividade-ponto': `/api/relatorio/${campo.projeto}/produtividade.csv?decimal=ponto`,
    };
    const write = async (files: Record<string, string>) => {
      const written: string[] = [];
      for (const [nome, url] of Object.entries(files)) {
        const bytes = await download(url);
        raw[nome] = bytes.toString('utf8');
        written.push(scratch.write(`${nome}.csv`, bytes));
      }
      return written;
    };
    const pt = await write(arquivos);
    // The BDGD zip's CSV, as the zip holds it.
    const zip = scratch.write('bdgd.zip', await download(`/api/bdgd/${campo.projeto}/kml`));
    const bdgd = unzipEntry(zip, 'Planilha.csv');
    raw.bdgd = bdgd.toString('utf8');
    pt.push(scratch.write('bdgd.csv', bdgd));
    const en = await write(ponto);
    const outDir = path.dirname(pt[0] ?? '');
    const converted = [
      ...spreadsheetConvert(pt, IDIOMA.ptBR, outDir),
      ...spreadsheetConvert(en, IDIOMA.enUS, outDir),
    ];
    for (const xlsx of converted) sheets[path.basename(xlsx, '.xlsx')] = await readSheet(xlsx);
  }, 300_000);
  afterAll(async () => {
    scratch?.remove();
    await ctx?.close();
  });

  it('writes decimals with a comma: the file as bytes', () => {
    const postes = parseCsv(Buffer.from(raw.postes ?? ''));
    expect(postes.rows.map((row) => row.ALTURA)).toEqual(['10,5', '9']);
    for (const row of postes.rows) {
      expect(row.UTM_E).toMatch(/^\d{6},\d{2}$/);
      expect(row.UTM_N).toMatch(/^\d{7},\d{2}$/);
    }
    const vegetacao = parseCsv(Buffer.from(raw.vegetacao ?? ''));
    expect(vegetacao.rows.map((row) => [row.DISTANCIA_REDE_BT, row.DIAMETRO_TRONCO, row.ALTURA])).toEqual([
      ['0,8', '35,5', '4,5'],
      ['', '', '12'],
    ]);
  });

  it('reads UTM, heights, distances and diameters as numbers equal to the stored values', () => {
    for (const sheet of ['unidades', 'postes', 'postes-simplificado', 'vegetacao', 'tecnico-dia', 'bdgd']) {
      expectUtm(sheet);
    }
    for (const sheet of ['postes', 'postes-simplificado']) {
      expect(rowOf(sheet, 'poste1').ALTURA, sheet).toEqual(numero(10.5));
      expect(rowOf(sheet, 'poste2').ALTURA, sheet).toEqual(numero(9));
    }
    const arvore = stored.get(ids.arvore1 ?? '')?.dados;
    expect(rowOf('vegetacao', 'arvore1')).toMatchObject({
      DISTANCIA_REDE_BT: numero(Number(arvore?.distanciaRedeBT)),
      DIAMETRO_TRONCO: numero(Number(arvore?.diametroTronco)),
      ALTURA: numero(Number(arvore?.altura)),
    });
    expect(rowOf('vegetacao', 'arvore1')).toMatchObject({
      DISTANCIA_REDE_BT: numero(0.8),
      DIAMETRO_TRONCO: numero(35.5),
      ALTURA: numero(4.5),
    });
    expect(rowOf('vegetacao', 'arvore2').ALTURA).toEqual(numero(12));
    // The median GPS accuracy of João's day: 4 and 5 m.
    expect(sheets.produtividade?.[0]?.PRECISAO_MEDIANA_M).toEqual(numero(4.5));
  });

  it('keeps integers as numbers, dates and times as they were, and text as text', () => {
    expect(rowOf('unidades', 'unidade1')).toMatchObject({
      TECNICO: texto('João de Tal'),
      DATA: data(21, 9),
      TIPO_UNIDADE: texto('SDU'),
      NUMERO: numero(10),
      COMPLEMENTO1: texto('1.2.3'),
      QUANTIDADE: numero(1),
      POSTE: texto(ids.poste1 ?? ''),
      FOTOS: numero(0),
    });
    expect(rowOf('postes', 'poste1')).toMatchObject({
      DATA: data(21, 8),
      TIPO: texto('CONCRETO CIRCULAR'),
      CARGA: numero(600),
      ATERRAMENTO: texto('SIM'),
      QTD_DROP: numero(1),
    });
    expect(rowOf('vegetacao', 'arvore1')).toMatchObject({
      CONTATO_BT: texto('SIM'),
      FENOTIPO: texto('Ipê-amarelo'),
    });
    expect(rowOf('bdgd', 'bdgd1')).toMatchObject({
      DATA: data(21, 11),
      SEQUENCIAL: numero(1),
      ATIVO: texto('Poste'),
      ID_CONCESSIONARIA: texto('1.5'),
    });
    expect(rowOf('tecnico-dia', 'poste2')).toMatchObject({ FLUXO: texto('Poste'), DATA: data(21, 8, 30) });
    expect(
      sheets['vegetacao-producao']?.map((row) => [row.TECNICO, celula(row.DATA), row.QUANTIDADE]),
    ).toEqual([
      [texto('João de Tal'), data(21), numero(1)],
      [texto('João de Tal'), data(22), numero(1)],
    ]);
    const [dia21] = sheets.produtividade ?? [];
    expect({ ...dia21, PRIMEIRO: celula(dia21?.PRIMEIRO), ULTIMO: celula(dia21?.ULTIMO) }).toMatchObject({
      DATA: data(21),
      TOTAL: numero(5),
      PRIMEIRO: hora(8, 0),
      ULTIMO: hora(11, 0),
      FOTOS_COMPLETAS_PCT: numero(0),
    });
  });

  it('keeps the point with ?decimal=ponto, which a spreadsheet in en-US reads as numbers', () => {
    const postes = parseCsv(Buffer.from(raw['postes-ponto'] ?? ''));
    expect(postes.rows.map((row) => row.ALTURA)).toEqual(['10.5', '9']);
    for (const row of postes.rows) expect(row.UTM_E).toMatch(/^\d{6}\.\d{2}$/);
    const vegetacao = parseCsv(Buffer.from(raw['vegetacao-ponto'] ?? ''));
    expect(vegetacao.rows[0]).toMatchObject({
      DISTANCIA_REDE_BT: '0.8',
      DIAMETRO_TRONCO: '35.5',
      ALTURA: '4.5',
    });
    expect(parseCsv(Buffer.from(raw['produtividade-ponto'] ?? '')).rows[0]?.PRECISAO_MEDIANA_M).toBe('4.5');
    // The rest of the file is as in the default one.
    const semDecimais = (text: string) => text.replace(/(\d)[.,](\d)/g, '$1$2');
    expect(semDecimais(raw['postes-ponto'] ?? '')).toBe(semDecimais(raw.postes ?? ''));

    for (const sheet of ['postes-ponto', 'vegetacao-ponto', 'tecnico-dia-ponto']) expectUtm(sheet);
    expect(rowOf('postes-ponto', 'poste1').ALTURA).toEqual(numero(10.5));
    expect(rowOf('vegetacao-ponto', 'arvore1')).toMatchObject({
      DISTANCIA_REDE_BT: numero(0.8),
      DIAMETRO_TRONCO: numero(35.5),
      ALTURA: numero(4.5),
    });
    expect(sheets['produtividade-ponto']?.[0]?.PRECISAO_MEDIANA_M).toEqual(numero(4.5));
  });

  it('refuses a separator it does not know', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/extrator/${campo.projeto}/postes.csv?decimal=virgula-e-ponto`,
      headers: { cookie: campo.admin },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Separador decimal inválido/);
  });
});
