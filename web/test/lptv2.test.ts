// LPT Agiltec on the device: the list's filters over a 10,000-row project file, and when Gravar is enabled.
import { describe, expect, it } from 'vitest';
import { filterLptAgiltec, indexLptAgiltec, searchKey } from '../src/collect/lptv2/lptv2-filter';
import { canSaveAtRefreshedLocation } from '../src/collect/shared/refreshed-location';
import type { LocalColeta } from '../src/offline/records';

const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const MUNICIPIOS = ['Lapa', 'Balsa Nova', 'Ponta Grossa', 'São José dos Pinhais'];
const NOMES = ['Maria da Silva', 'José Souza', 'Antônio Pereira', 'Ana Luíza Gonçalves', 'João Batista'];

/** A record of the project's file as the by-project download leaves it on the device. */
function registro(i: number, extra: Partial<LocalColeta> = {}): LocalColeta {
  return {
    id: `0190a1b2-c3d4-7e5f-8a9b-${String(i).padStart(12, '0')}`,
    projeto: PROJETO,
    dataHora: 0,
    coordenadas: { lat: 0, lng: 0 },
    fotos: [],
    imagensCompactadas: true,
    sincronizadoEm: 1_800_000_000_000,
    coletado: false,
    carregadoBackoffice: true,
    dados: {
      os: String(100_000 + i),
      nome: `${NOMES[i % NOMES.length]} ${i}`,
      comunidade: `Comunidade ${i % 37}`,
      municipio: MUNICIPIOS[i % MUNICIPIOS.length],
      cpf: '000.000.000-00',
    },
    ...extra,
  };
}

const ARQUIVO = Array.from({ length: 10_000 }, (_, i) => registro(i));
const index = indexLptAgiltec(ARQUIVO);
const osOf = (entries: { os: string }[]) => entries.map((entry) => entry.os);

describe('LPT Agiltec list filters', () => {
  it('lists every record, sorted by name, and the municípios once each, sorted', () => {
    expect(index.entries).toHaveLength(10_000);
    expect(index.municipios).toEqual(['Balsa Nova', 'Lapa', 'Ponta Grossa', 'São José dos Pinhais']);
    const nomes = index.entries.map((entry) => entry.nomeKey);
    expect(nomes.slice(0, 3)).toEqual([
      'ana luiza goncalves 1003',
      'ana luiza goncalves 1008',
      'ana luiza goncalves 1013',
    ]);
    expect([...nomes].sort()).toEqual(nomes);
  });

  it('no filter: all of them', () => {
    expect(filterLptAgiltec(index, { municipios: [], nome: '', os: '' })).toHaveLength(10_000);
  });

  it('Município takes several: records of any chosen one', () => {
    const lapa = filterLptAgiltec(index, { municipios: ['Lapa'], nome: '', os: '' });
    expect(lapa).toHaveLength(2_500);
    expect(lapa.every((entry) => entry.municipio === 'Lapa')).toBe(true);
    const duas = filterLptAgiltec(index, { municipios: ['Lapa', 'São José dos Pinhais'], nome: '', os: '' });
    expect(duas).toHaveLength(5_000);
    expect(new Set(duas.map((entry) => entry.municipio))).toEqual(new Set(['Lapa', 'São José dos Pinhais']));
  });

  it('Nome matches every typed word, without accents or capitals, in any order', () => {
    const antonio = filterLptAgiltec(index, { municipios: [], nome: '  ANTONIO  pereira ', os: '' });
    expect(antonio).toHaveLength(2_000);
    expect(antonio.every((entry) => entry.nome.startsWith('Antônio Pereira'))).toBe(true);
    const com42 = filterLptAgiltec(index, { municipios: [], nome: 'pereira antônio 42', os: '' });
    expect(com42.length).toBeGreaterThan(0);
    expect(com42.every((entry) => /^Antônio Pereira \d*42\d*$/.test(entry.nome))).toBe(true);
    expect(com42.map((entry) => entry.nome)).toContain('Antônio Pereira 42');
    expect(filterLptAgiltec(index, { municipios: [], nome: 'goncalves', os: '' })).toHaveLength(2_000);
  });

  it('OS matches what is typed within the OS; filters combine', () => {
    expect(osOf(filterLptAgiltec(index, { municipios: [], nome: '', os: '105001' }))).toEqual(['105001']);
    expect(filterLptAgiltec(index, { municipios: [], nome: '', os: '1099' })).toHaveLength(101);
    const combinados = filterLptAgiltec(index, { municipios: ['Balsa Nova'], nome: 'josé', os: '1099' });
    // 'José Souza' when i % 5 === 1, 'Balsa Nova' when i % 4 === 1: i % 20 === 1, and 1099 in 10990x.
    expect(osOf(combinados)).toEqual(['109901', '109921', '109941', '109961', '109981']);
    expect(filterLptAgiltec(index, { municipios: ['Lapa'], nome: 'josé', os: '109981' })).toEqual([]);
  });

  it('marks the collected rows, on the device or from the server (possuiColeta became coletado)', () => {
    const small = indexLptAgiltec([
      registro(1),
      registro(2, { coletado: true }),
      registro(3, { coletado: true, sincronizadoEm: undefined }),
    ]);
    expect(small.entries.map((entry) => [entry.os, entry.coletado])).toEqual([
      ['100003', true],
      ['100002', true],
      ['100001', false],
    ]);
  });

  it('tolerates records without a name, OS or município', () => {
    const vazio = indexLptAgiltec([{ ...registro(1), dados: {} }]);
    expect(vazio.municipios).toEqual([]);
    expect(filterLptAgiltec(vazio, { municipios: [], nome: '', os: '' })).toHaveLength(1);
    expect(filterLptAgiltec(vazio, { municipios: [], nome: 'maria', os: '' })).toHaveLength(0);
  });

  it('searchKey drops accents, capitals and extra spaces', () => {
    expect(searchKey('  JOSÉ   da  Conceição ')).toBe('jose da conceicao');
  });
});

describe('LPT Agiltec Gravar', () => {
  const aqui = { lat: -25.0962, lng: -50.1651, precisao: 4 };

  it('is enabled only with known coordinates taken by Atualizar localização', () => {
    expect(canSaveAtRefreshedLocation({ point: null, refreshed: false })).toBe(false);
    // The record's (or an earlier) position alone is not enough: the technician must refresh it here.
    expect(canSaveAtRefreshedLocation({ point: aqui, refreshed: false })).toBe(false);
    expect(canSaveAtRefreshedLocation({ point: null, refreshed: true })).toBe(false);
    expect(canSaveAtRefreshedLocation({ point: { lat: Number.NaN, lng: -50 }, refreshed: true })).toBe(false);
    expect(canSaveAtRefreshedLocation({ point: aqui, refreshed: true })).toBe(true);
  });
});
