// What screens may ask of the device's database; components never touch Dexie directly.
import { NovusDatabase, type LocalProjeto } from './db';

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

  async listProjetos(): Promise<LocalProjeto[]> {
    return this.db.projeto.orderBy('nome').toArray();
  }

  getProjeto(id: string): Promise<LocalProjeto | undefined> {
    return this.db.projeto.get(id);
  }

  close(): void {
    this.db.close();
  }
}
