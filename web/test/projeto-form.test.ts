import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjetoDetail } from '../src/api/projeto';
import {
  EMPTY_PROJETO_FORM,
  mapData,
  projetoFormBody,
  projetoFormReducer,
  type ProjetoFormAction,
  readFile,
  rereadForFuso,
  type ProjetoFormState,
  sizeError,
  validate,
} from '../src/backoffice/projetos/projeto-form';
import { boundsOf, BRAZIL } from '../src/map/bounds';

const samples = path.resolve(import.meta.dirname, '../../docs/samples');
const sample = (name: string) => fs.readFileSync(path.join(samples, name), 'utf8');

function run(...actions: ProjetoFormAction[]): ProjetoFormState {
  return actions.reduce(projetoFormReducer, EMPTY_PROJETO_FORM);
}

const pick = (
  slot: 'kml' | 'ip' | 'bdgd' | 'fiscalizacao' | 'lpt2',
  name: string,
  text = sample(name),
  fuso = '',
) => readFile(slot, name, text, fuso);

describe('the project form', () => {
  it('reads a KML into zones for the map and keeps its raw text for the server', async () => {
    const state = run(await pick('kml', 'zoneamento-curitiba.kml'));
    expect(state.files.kml?.count).toBe(3);
    expect(state.files.kml?.zonas.map((zona) => zona.label)).toEqual([
      'Zona Centro',
      'Zona Batel',
      'Zona Rebouças',
    ]);
    expect(mapData(state).zonas).toHaveLength(3);
    expect(projetoFormBody(state).get('kml')).toBe(sample('zoneamento-curitiba.kml'));
  });

  it('refuses a bad KML with its message and keeps nothing', async () => {
    const good = run(await pick('kml', 'zoneamento-curitiba.kml'));
    const bad = projetoFormReducer(good, await pick('kml', 'ruim.kml', '<kml><Document></Document></kml>'));
    expect(bad.files.kml).toBeUndefined();
    expect(bad.fileErrors.kml).toBe('ruim.kml: O arquivo KML não contém nenhum polígono.');
    expect(projetoFormBody(bad).has('kml')).toBe(false);
  });

  it('accepts only .kml for zoning and .txt for IP points', async () => {
    const state = run(
      { type: 'fluxo', fluxo: 'ip', checked: true },
      await pick('kml', 'zonas.txt', sample('zoneamento-curitiba.kml')),
      await pick('ip', 'pontos.csv', sample('pontos-ip.txt')),
    );
    expect(state.fileErrors.kml).toBe('zonas.txt: Apenas arquivos .kml são aceitos.');
    expect(state.fileErrors.ip).toBe('pontos.csv: Apenas arquivos .txt são aceitos.');
  });

  it('names the line of a bad point file', async () => {
    const state = run(
      { type: 'fluxo', fluxo: 'ip', checked: true },
      await pick('ip', 'p.txt', '-49.2;-25.4;A;B\n-49.2;-25.4\n'),
    );
    expect(state.fileErrors.ip).toMatch(/^p\.txt: Linha 2: esperadas 4 colunas/);
  });

  it('needs a fuso for BDGD and reads it again when the fuso changes', async () => {
    const noFuso = run(
      { type: 'fluxo', fluxo: 'bdgd', checked: true },
      await pick('bdgd', 'bdgd-fuso22.csv'),
    );
    expect(noFuso.fileErrors.bdgd).toBe(
      'bdgd-fuso22.csv: Escolha o fuso do projeto antes de enviar o arquivo BDGD.',
    );
    const fuso22 = projetoFormReducer(
      projetoFormReducer(noFuso, { type: 'field', field: 'fuso', value: '22' }),
      await pick('bdgd', 'bdgd-fuso22.csv', sample('bdgd-fuso22.csv'), '22'),
    );
    const [lat22, lng22] = fuso22.files.bdgd?.pontos[0] ?? [0, 0];
    expect(lat22).toBeCloseTo(-25.43, 1);
    expect(lng22).toBeCloseTo(-49.27, 1);
    const fuso23 = (await rereadForFuso(fuso22, '23')).reduce(
      projetoFormReducer,
      projetoFormReducer(fuso22, { type: 'field', field: 'fuso', value: '23' }),
    );
    expect(fuso23.files.bdgd?.pontos[0]?.[1]).toBeCloseTo(lng22 + 6, 0);
  });

  it('reads fiscalização in fuso 22 by default and LPT Agiltec without coordinates', async () => {
    const state = run(
      { type: 'fluxo', fluxo: 'fiscalizacao', checked: true },
      { type: 'fluxo', fluxo: 'lpt2', checked: true },
      await pick('fiscalizacao', 'fiscalizacao-fuso22.csv'),
      await pick('lpt2', 'lpt-agiltec.csv'),
    );
    expect(state.files.fiscalizacao?.pontos[0]?.[0]).toBeCloseTo(-25.43, 1);
    expect(state.files.lpt2?.count).toBeGreaterThan(0);
    expect(state.files.lpt2?.pontos).toEqual([]);
  });

  it('reads fiscalização in zone 22 even on a project of another fuso, and does not read it again for a new fuso', async () => {
    const fuso23 = run(
      { type: 'field', field: 'fuso', value: '23' },
      { type: 'fluxo', fluxo: 'fiscalizacao', checked: true },
      await pick('fiscalizacao', 'fiscalizacao-fuso22.csv', sample('fiscalizacao-fuso22.csv'), '23'),
    );
    const [lat, lng] = fuso23.files.fiscalizacao?.pontos[0] ?? [0, 0];
    expect(lat).toBeCloseTo(-25.43, 1);
    expect(lng).toBeCloseTo(-49.27, 1);
    expect(await rereadForFuso(fuso23, '24')).toEqual([]);
  });

  it('clears the points of an unticked flow, and never sends them', async () => {
    const withIp = run({ type: 'fluxo', fluxo: 'ip', checked: true }, await pick('ip', 'pontos-ip.txt'));
    expect(withIp.files.ip?.count).toBe(4);
    expect(mapData(withIp).pontos.ip).toHaveLength(4);
    const unticked = projetoFormReducer(withIp, { type: 'fluxo', fluxo: 'ip', checked: false });
    expect(unticked.files.ip).toBeUndefined();
    expect(mapData(unticked).pontos.ip).toEqual([]);
    expect(projetoFormBody(unticked).has('arquivoIP')).toBe(false);
  });

  it('builds the form-encoded body: repeated fluxos, fuso, interpres and the picked files only', async () => {
    const state = run(
      { type: 'field', field: 'nome', value: 'Curitiba' },
      { type: 'field', field: 'cliente', value: 'c1' },
      { type: 'fluxo', fluxo: 'ip', checked: true },
      { type: 'fluxo', fluxo: 'hc', checked: true },
      { type: 'opcao', field: 'disponivelInterpres', value: true },
      { type: 'opcao', field: 'carimboFotos', value: false },
      { type: 'field', field: 'retencaoCopiasDias', value: '30' },
      await pick('ip', 'pontos-ip.txt'),
    );
    const body = projetoFormBody(state, 'p1');
    expect(body.get('id')).toBe('p1');
    expect(body.get('nome')).toBe('Curitiba');
    expect(body.get('cliente')).toBe('c1');
    expect(body.get('fuso')).toBe('');
    expect(body.getAll('fluxos')).toEqual(['hc', 'ip']);
    expect(body.get('disponivelInterpres')).toBe('true');
    expect(body.get('carimboFotos')).toBe('false');
    expect(projetoFormBody(EMPTY_PROJETO_FORM).get('carimboFotos')).toBe('true');
    expect(body.get('retencaoCopiasDias')).toBe('30');
    // the phones keep what they sent for 7 days unless the project says otherwise (issue 39)
    expect(projetoFormBody(EMPTY_PROJETO_FORM).get('retencaoCopiasDias')).toBe('7');
    expect(body.get('arquivoIP')).toBe(sample('pontos-ip.txt'));
    expect(body.has('kml')).toBe(false);
    expect(body.has('arquivoBDGD')).toBe(false);
    expect(body.toString()).toContain('fluxos=hc&fluxos=ip');
  });

  it('fills every field from a loaded project and shows what is saved until a file replaces it', async () => {
    const projeto: ProjetoDetail = {
      _id: 'p1',
      nome: 'Curitiba',
      cliente: 'c1',
      fluxos: ['ip', 'hc'],
      fuso: 22,
      disponivelInterpres: true,
      carimboFotos: false,
      retencaoCopiasDias: 15,
      zonas: [{ _id: 'z1', label: 'Zona Centro', poligono: [{ lat: -25.4, lng: -49.2 }] }],
      pontos: { ip: [{ _id: 'i1', coordenadas: [-25.43, -49.27] }], bdgd: [], fiscalizacao: [], lpt2: [] },
    };
    const state = run({ type: 'loaded', projeto });
    expect(state).toMatchObject({ nome: 'Curitiba', cliente: 'c1', fuso: '22', fluxos: ['hc', 'ip'] });
    expect(state.disponivelInterpres).toBe(true);
    expect(state.carimboFotos).toBe(false);
    expect(state.retencaoCopiasDias).toBe('15');
    expect(state.saved.counts.ip).toBe(1);
    expect(mapData(state).zonas).toHaveLength(1);
    const replaced = projetoFormReducer(state, await pick('kml', 'zoneamento-curitiba.kml'));
    expect(mapData(replaced).zonas).toHaveLength(3);
    expect(mapData(projetoFormReducer(replaced, { type: 'fileCleared', slot: 'kml' })).zonas).toHaveLength(1);
    expect(projetoFormBody(state, 'p1').has('kml')).toBe(false);
  });

  it('requires only the client and refuses oversized files before reading them', () => {
    expect(validate(EMPTY_PROJETO_FORM)).toEqual({ cliente: 'Escolha o cliente do projeto.' });
    expect(validate(run({ type: 'field', field: 'cliente', value: 'c1' }))).toEqual({});
    expect(sizeError('ip', 20 * 1024 * 1024)).toBeNull();
    expect(sizeError('ip', 20 * 1024 * 1024 + 1)).toBe('O arquivo excede o tamanho máximo de 20 MB.');
    expect(sizeError('kml', 11 * 1024 * 1024)).toBe('O arquivo excede o tamanho máximo de 10 MB.');
  });
});

describe('the map bounds', () => {
  it('cover every shape, or Brazil when there is none', () => {
    expect(boundsOf([])).toEqual(BRAZIL);
    expect(BRAZIL).toEqual([
      [-33.77, -73.99],
      [5.24, -34.73],
    ]);
    expect(
      boundsOf([
        [-25.4, -49.3],
        [-25.5, -49.2],
      ]),
    ).toEqual([
      [-25.5, -49.3],
      [-25.4, -49.2],
    ]);
  });
});
