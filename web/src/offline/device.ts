// The device's services (app/services.tsx Device): IndexedDB through Dexie, the record store and the sync
// transport, with the flow registry they carry. main.tsx loads this module beside the first page.
import type { Device } from '../app/services';
import { HttpSyncTransport } from '../api/sync-transport';
import { LocalStore } from './local-store';
import { RecordStore } from './records';

export function createDevice(): Device {
  const localStore = new LocalStore();
  return { localStore, records: new RecordStore(localStore.db), transport: new HttpSyncTransport() };
}
