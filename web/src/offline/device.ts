// The device's services (shared/services.tsx hands them down): IndexedDB through Dexie, the record store and the
// sync transport, with the flow registry they carry. main.tsx loads this module beside the first page.
import { HttpSyncTransport } from '../api/sync-transport';
import { CopiasDatabase, CopiaStore } from './copias';
import { NovusDatabase } from './db';
import { LocalStore } from './local-store';
import { PhotoEncoding } from './photo-encoding';
import { RecordStore } from './records';

export interface Device {
  localStore: LocalStore;
  /** The one write path for collected records (offline/records.ts), with the copies of what was sent (copias.ts). */
  records: RecordStore;
  transport: HttpSyncTransport;
}

export function createDevice(): Device {
  // One photo encoding for both databases, remembered in localStorage: a private window learns it once (issue 40).
  const fotos = new PhotoEncoding(browserStorage());
  const localStore = new LocalStore(new NovusDatabase(undefined, fotos));
  return {
    localStore,
    records: new RecordStore(localStore.db, Date.now, new CopiaStore(new CopiasDatabase(undefined, fotos))),
    transport: new HttpSyncTransport(),
  };
}

/** localStorage, or none where the browser blocks it (reading it may throw). */
function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
