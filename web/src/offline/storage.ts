// Device storage: how much the browser lets Novus keep, and asking it not to evict our data.

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

/** The browser refused a write for want of space (Dexie wraps the DOMException and keeps it as `inner`). */
export function isQuotaExceeded(error: unknown): boolean {
  for (let cause = error; typeof cause === 'object' && cause !== null;) {
    if ('name' in cause && cause.name === 'QuotaExceededError') return true;
    cause = 'inner' in cause ? cause.inner : null;
  }
  return false;
}

/** What a failed save tells the technician: a full device in Portuguese, anything else as it came. */
export function saveErrorText(error: unknown): string {
  if (isQuotaExceeded(error)) return STORAGE_FULL_TEXT;
  return error instanceof Error ? error.message : String(error);
}
