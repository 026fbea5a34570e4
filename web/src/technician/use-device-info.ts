import { useEffect, useState } from 'react';
import { useServices } from '../app/services';
import { formatStorageUsage, readStorageUsage } from '../offline/storage';

export interface DeviceInfo {
  /** Native IndexedDB version of the local database, once opened. */
  databaseVersion: number | null;
  databaseError: string | null;
  /** 'x GB de y GB (z%)', or null while unknown or unsupported. */
  storage: string | null;
}

export function useDeviceInfo(): DeviceInfo {
  const { localStore } = useServices();
  const [info, setInfo] = useState<DeviceInfo>({ databaseVersion: null, databaseError: null, storage: null });

  useEffect(() => {
    let active = true;
    localStore.info().then(
      ({ nativeVersion }) => active && setInfo((prev) => ({ ...prev, databaseVersion: nativeVersion })),
      (error: unknown) =>
        active &&
        setInfo((prev) => ({
          ...prev,
          databaseError: error instanceof Error ? error.message : String(error),
        })),
    );
    readStorageUsage().then(
      (usage) =>
        active && usage !== null && setInfo((prev) => ({ ...prev, storage: formatStorageUsage(usage) })),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [localStore]);

  return info;
}
