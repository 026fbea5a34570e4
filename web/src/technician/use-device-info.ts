import { useEffect, useState } from 'react';
import { useDevice } from '../shared/services';

export interface DeviceInfo {
  /** Native IndexedDB version of the local database, once opened. */
  databaseVersion: number | null;
  databaseError: string | null;
}

/** The local database's version for the home; storage usage is the storage panel's (use-offline-status.ts). */
export function useDeviceInfo(): DeviceInfo {
  const device = useDevice();
  const [info, setInfo] = useState<DeviceInfo>({ databaseVersion: null, databaseError: null });

  useEffect(() => {
    let active = true;
    device()
      .then(({ localStore }) => localStore.info())
      .then(
        ({ nativeVersion }) => active && setInfo((prev) => ({ ...prev, databaseVersion: nativeVersion })),
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
  }, [device]);

  return info;
}
