// What screens may ask of the device's database; components never touch Dexie directly.
import { Dexie, type ObservabilitySet } from 'dexie';
import { NovusDatabase, type LocalProjeto } from './db';
import { reopening } from './reopen';

export interface LocalDatabaseInfo {
  name: string;
  /** The IndexedDB version the browser reports (21), not Dexie's declared 2.1. */
  nativeVersion: number;
}

export class LocalStore {
  readonly db: NovusDatabase;

  constructor(db: NovusDatabase = new NovusDatabase()) {
    this.db = db;
  }

  async info(): Promise<LocalDatabaseInfo> {
    await this.db.open();
    const native = this.db.backendDB();
    return { name: native.name, nativeVersion: native.version };
  }

  listProjetos(): Promise<LocalProjeto[]> {
    return reopening(this.db, () => this.db.projeto.orderBy('nome').toArray());
  }

  getProjeto(id: string): Promise<LocalProjeto | undefined> {
    return reopening(this.db, () => this.db.projeto.get(id));
  }

  /**
   * Calls `listener` after writes to the device's database commit, in this tab or another (Dexie carries them over a
   * BroadcastChannel): a record saved in one tab shows in the other's lists. Coalesced: once per `delayMs` at most.
   */
  onChange(listener: () => void, delayMs = 250): () => void {
    const prefix = `idb://${this.db.name}/`;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onMutated = (parts: ObservabilitySet) => {
      if (timer !== null || !Object.keys(parts).some((part) => part.startsWith(prefix))) return;
      timer = setTimeout(() => {
        timer = null;
        listener();
      }, delayMs);
    };
    Dexie.on('storagemutated', onMutated);
    return () => {
      Dexie.on('storagemutated').unsubscribe(onMutated);
      if (timer !== null) clearTimeout(timer);
    };
  }

  close(): void {
    this.db.close();
  }
}
