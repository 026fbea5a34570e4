// 'Repetir último' (issue 26): what a technician last saved in a flow of a project, remembered on the device at
// Gravar because poles and units leave it once synced (deleteAfterUpload), and which of those values a new record
// takes. Pure apart from the Storage it is given.
import type { LocalColeta } from '../../offline/records';

export const REPETIR_TEXTS = {
  button: 'Repetir último',
  mark: 'Repetido do último registro',
  nothing: 'Nenhum registro anterior seu neste projeto para repetir.',
  nothingHere: 'O último registro não tem campos que se repitam aqui.',
  done: (count: number) =>
    count === 1 ? '1 campo repetido do último registro.' : `${count} campos repetidos do último registro.`,
} as const;

/** Whose last record: one technician, in one flow of one project. */
export interface RepeatScope {
  flow: string;
  projeto: string;
  tecnico: string;
}

/** The last record saved in a scope: its id (a correction of it replaces it) and its validated fields. */
export interface LastRecord {
  id: string;
  dataHora: number;
  dados: Record<string, unknown>;
}

/** The wizard saves with the session's name as the technician; the form reads with the same. */
export function repeatScope(flow: string, projeto: string, tecnico: string | undefined): RepeatScope {
  return { flow, projeto, tecnico: tecnico ?? '' };
}

const KEY_PREFIX = 'novus.repetir';

/**
 * The last record per technician, flow and project, in localStorage: a few hundred bytes each, read on the form's
 * first render without waiting for IndexedDB. A storage that refuses (full, private mode) only loses the memory;
 * it never fails a save.
 */
export class RepeatMemory {
  constructor(private readonly storage: Storage | null) {}

  read(scope: RepeatScope): LastRecord | null {
    try {
      const raw = this.storage?.getItem(keyOf(scope));
      if (raw === null || raw === undefined) return null;
      const value: unknown = JSON.parse(raw);
      return isLastRecord(value) ? value : null;
    } catch {
      return null;
    }
  }

  /** A new record: it is now the last one. */
  remember(scope: RepeatScope, last: LastRecord): void {
    try {
      this.storage?.setItem(keyOf(scope), JSON.stringify(last));
    } catch {
      // the memory is a convenience: Gravar already stored the record itself
    }
  }

  /** A record changed on the device: remembered only if it is the last one (an older one stays older). */
  rememberChange(scope: RepeatScope, changed: LastRecord): void {
    if (this.read(scope)?.id === changed.id) this.remember(scope, changed);
  }
}

/** The browser's memory; none where localStorage cannot even be reached (tests in Node, blocked storage). */
export function browserRepeatMemory(): RepeatMemory {
  try {
    return new RepeatMemory(typeof localStorage === 'undefined' ? null : localStorage);
  } catch {
    return new RepeatMemory(null);
  }
}

function keyOf({ flow, projeto, tecnico }: RepeatScope): string {
  return `${KEY_PREFIX}:${JSON.stringify([flow, projeto, tecnico])}`;
}

function isLastRecord(value: unknown): value is LastRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { id, dataHora, dados } = value as Record<string, unknown>;
  return (
    typeof id === 'string' && typeof dataHora === 'number' && typeof dados === 'object' && dados !== null
  );
}

/** The technician's newest record of the flow still on the device (the fallback when nothing is remembered). */
export function newestOwnRecord(records: readonly LocalColeta[], tecnico: string): LastRecord | null {
  let newest: LocalColeta | null = null;
  for (const record of records) {
    if (record.tecnico !== tecnico) continue;
    if (newest === null || record.dataHora > newest.dataHora) newest = record;
  }
  return newest && { id: newest.id, dataHora: newest.dataHora, dados: newest.dados };
}

/** A form's values, as react-hook-form holds them: text, booleans, lists of text. */
type FormValues = Record<string, unknown>;

/**
 * The named fields of the previous record that have a value: an empty text is not repeated (it would only clear
 * what the form already has), a boolean always is (false is an answer).
 */
export function copiedFields<V extends FormValues>(
  previous: V,
  fields: readonly (keyof V & string)[],
): Partial<V> {
  const copied: Partial<V> = {};
  for (const field of fields) {
    const value = previous[field];
    if (typeof value === 'boolean' || (typeof value === 'string' && value !== '')) copied[field] = value;
  }
  return copied;
}

/**
 * Which fields of the form a repeat marks: those it filled, while they still hold the value it put there. A field
 * the technician changed loses its mark for good, even if changed back.
 */
export function stillRepeated(
  marks: ReadonlyMap<string, unknown>,
  values: FormValues,
): ReadonlyMap<string, unknown> {
  const kept = new Map<string, unknown>();
  for (const [name, value] of marks) if (values[name] === value) kept.set(name, value);
  return kept.size === marks.size ? marks : kept;
}
