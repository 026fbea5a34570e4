// The LPT Agiltec list's filters (SPEC.md section 2): Município (several), Nome, OS over a project file of up to
// 10,000 records. The index is built once per list of records; a keystroke only scans its prepared keys.
import type { LocalColeta } from '../../offline/records';

export interface LptAgiltecEntry {
  record: LocalColeta;
  os: string;
  nome: string;
  comunidade: string;
  municipio: string;
  /** Collected on this device or on the server (possuiColeta). */
  coletado: boolean;
  /** Lower case without accents, for matching. */
  osKey: string;
  nomeKey: string;
}

export interface LptAgiltecIndex {
  /** Sorted by nome, then OS. */
  entries: readonly LptAgiltecEntry[];
  /** The municípios of the records, sorted, for the Município filter. */
  municipios: readonly string[];
}

export interface LptAgiltecFiltro {
  municipios: readonly string[];
  nome: string;
  os: string;
}

const COLLATOR = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/** 'José  da SILVA' → 'jose da silva': what a technician types matches with or without accents and capitals. */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

export function indexLptAgiltec(records: readonly LocalColeta[]): LptAgiltecIndex {
  const entries = records.map((record): LptAgiltecEntry => {
    const os = text(record.dados.os);
    const nome = text(record.dados.nome);
    return {
      record,
      os,
      nome,
      comunidade: text(record.dados.comunidade),
      municipio: text(record.dados.municipio),
      coletado: record.coletado === true,
      osKey: searchKey(os),
      nomeKey: searchKey(nome),
    };
  });
  entries.sort((a, b) =>
    a.nomeKey === b.nomeKey ? COLLATOR.compare(a.os, b.os) : a.nomeKey < b.nomeKey ? -1 : 1,
  );
  const municipios = [...new Set(entries.map((entry) => entry.municipio).filter(Boolean))].sort(
    COLLATOR.compare,
  );
  return { entries, municipios };
}

/**
 * The entries matching every filter: one of the chosen municípios (none chosen: all), every word typed in Nome
 * somewhere in the name, the typed OS within the OS.
 */
export function filterLptAgiltec(index: LptAgiltecIndex, filtro: LptAgiltecFiltro): LptAgiltecEntry[] {
  const municipios = filtro.municipios.length > 0 ? new Set(filtro.municipios) : null;
  const words = searchKey(filtro.nome).split(' ').filter(Boolean);
  const os = searchKey(filtro.os);
  return index.entries.filter(
    (entry) =>
      (municipios === null || municipios.has(entry.municipio)) &&
      (os === '' || entry.osKey.includes(os)) &&
      words.every((word) => entry.nomeKey.includes(word)),
  );
}
