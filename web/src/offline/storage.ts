// Device storage: how much the browser lets Novus keep, and asking it not to evict our data.
import { isBlobRefused, someCause } from './idb-errors';

export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

export async function readStorageUsage(
  storage: StorageManager | undefined = navigator.storage,
): Promise<StorageUsage | null> {
  if (!storage?.estimate) return null;
  const estimate = await storage.estimate();
  return { usedBytes: estimate.usage ?? 0, quotaBytes: estimate.quota ?? 0 };
}

const GB = 1024 ** 3;

/** 'x GB de y GB (z%)', as the home screen shows it. */
export function formatStorageUsage({ usedBytes, quotaBytes }: StorageUsage): string {
  const gb = (bytes: number) =>
    (bytes / GB).toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = quotaBytes > 0 ? (usedBytes / quotaBytes) * 100 : 0;
  const percentText = percent.toLocaleString('pt-BR', { maximumFractionDigits: 1 });
  return `${gb(usedBytes)} GB de ${gb(quotaBytes)} GB (${percentText}%)`;
}

/** Weeks of offline records must survive storage pressure: ask once for persistent storage. */
export async function requestPersistentStorage(
  storage: StorageManager | undefined = navigator.storage,
): Promise<boolean> {
  if (!storage?.persist) return false;
  if (storage.persisted && (await storage.persisted())) return true;
  return storage.persist();
}

export const STORAGE_FULL_TEXT =
  'Não há espaço no aparelho para gravar este registro. Os registros já gravados continuam no aparelho: ' +
  'sincronize ou exporte os pendentes para liberar espaço e tente de novo.';

/** Names a storage failure comes by: IndexedDB's DOMExceptions and Dexie's own errors (OpenFailedError, ...). */
const STORAGE_ERROR_NAMES = new Set(
  [
    'Abort',
    'Constraint',
    'Data',
    'DataClone',
    'DatabaseClosed',
    'InvalidAccess',
    'InvalidState',
    'MissingAPI',
    'NotFound',
    'OpenFailed',
    'PrematureCommit',
    'QuotaExceeded',
    'ReadOnly',
    'Timeout',
    'TransactionInactive',
    'Unknown',
    'Upgrade',
    'Version',
  ].map((name) => `${name}Error`),
);

/** The browser refused a write for want of space (Dexie wraps the DOMException and keeps it as `inner`). */
export function isQuotaExceeded(error: unknown): boolean {
  return someCause(error, (_cause, name) => name === 'QuotaExceededError');
}

/** The device's database failed, whatever it said (its text is English and the browser's, not the technician's). */
function isStorageFailure(error: unknown): boolean {
  return someCause(
    error,
    (cause, name) =>
      (typeof DOMException !== 'undefined' && cause instanceof DOMException) ||
      (typeof name === 'string' && STORAGE_ERROR_NAMES.has(name)),
  );
}

export const PRIVATE_WINDOW_TEXT =
  'Este navegador não guarda fotos em uma janela privada. Abra o Novus em uma janela normal ' +
  '(fora da navegação privada) para gravar registros.';

export const STORAGE_FAILED_TEXT =
  'O aparelho não conseguiu gravar este registro. Os registros já gravados continuam no aparelho: feche e abra o ' +
  'Novus e tente de novo; se ainda não gravar, sincronize ou exporte os pendentes antes de continuar.';

/**
 * What a failed save tells the technician, in Portuguese: a full device, a private window, any other failure of the
 * device's database; the app's own errors ('Registro não encontrado neste aparelho.') as they came.
 */
export function saveErrorText(error: unknown): string {
  if (isQuotaExceeded(error)) return STORAGE_FULL_TEXT;
  if (isBlobRefused(error)) return PRIVATE_WINDOW_TEXT;
  if (isStorageFailure(error)) return STORAGE_FAILED_TEXT;
  return error instanceof Error ? error.message : String(error);
}
