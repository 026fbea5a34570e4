import { useEffect, useState } from 'react';
import { LOCAL_DB_VERSION } from '@novus/domain/constants';
import { useShell } from '../shared/services';

export interface DeviceInfo {
  /** Native IndexedDB version of the local database, once opened. */
  databaseVersion: number | null;
  databaseError: string | null;
}

/** The local database's version for the home; storage usage is the storage panel's (use-offline-status.ts). */
export function useDeviceInfo(): DeviceInfo {
  const { reader } = useShell();
  const [info, setInfo] = useState<DeviceInfo>({ databaseVersion: null, databaseError: null });

  useEffect(() => {
    let active = true;
    reader.info().then(
      // No database yet (no sync, no record): Dexie creates it at this app's version when the first one comes.
      (found) =>
        active &&
        setInfo((prev) => ({ ...prev, databaseVersion: found.exists ? found.value : LOCAL_DB_VERSION })),
      (error: unknown) =>
        active &&
        setInfo((prev) => ({
          ...prev,
          databaseError: error instanceof Error ? error.message : String(error),
        })),
    );
    return () => {
      active = false;
    };
  }, [reader]);

  return info;
}
