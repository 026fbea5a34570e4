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
