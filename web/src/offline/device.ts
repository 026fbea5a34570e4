// The device's services (shared/services.tsx hands them down): IndexedDB through Dexie, the record store and the
// sync transport, with the flow registry they carry. main.tsx loads this module beside the first page.
import { HttpSyncTransport } from '../api/sync-transport';
import { CopiaStore } from './copias';
import { LocalStore } from './local-store';
import { RecordStore } from './records';

export interface Device {
  localStore: LocalStore;
  /** The one write path for collected records (offline/records.ts), with the copies of what was sent (copias.ts). */
  records: RecordStore;
  transport: HttpSyncTransport;
}

export function createDevice(): Device {
  const localStore = new LocalStore();
  return {
    localStore,
    records: new RecordStore(localStore.db, Date.now, new CopiaStore()),
    transport: new HttpSyncTransport(),
  };
}
