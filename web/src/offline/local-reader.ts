// The device's databases read with IndexedDB itself, without Dexie (issue 41): the technician's home shows its
// banners, storage panel and database version from the stores db.ts declares (as Dexie created them), so the first
// page carries neither Dexie nor the flow registry. Every write stays with Dexie (records.ts); this module only reads.
import { COPIAS_DB_NAME, LOCAL_DB_NAME, LOCAL_DB_VERSION } from '@novus/domain/constants';
import type { DatabaseState } from './db-state';
import { isConnectionLost } from './reopen';

/**
 * How Dexie announces a committed write (dexie.js, DOM event and channel 'x-storagemutated-1'): an event on the window
 * of the tab that wrote, and a BroadcastChannel message to the other tabs. The detail is an object keyed by the parts
 * written ('idb://Novus/unidade/...'). web/test/local-reader.test.ts checks that Dexie still announces so.
 */
export const DEXIE_MUTATED = 'x-storagemutated-1';

type Listener = () => void;

export interface LocalReaderOptions {
  /**
   * Opens the database through Dexie, which upgrades it: called when the device holds an older version than this app's
   * (the device's code then loads, as it must for the upgrade), never when the database is current or absent.
   */
  upgrade: () => Promise<unknown>;
  name?: string;
  version?: number;
  indexedDB?: () => IDBFactory;
}

/** What a read of the database found: nothing when the device has no database yet (no sync, no record). */
export type Found<T> = { exists: false } | { exists: true; value: T };

const requestResult = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB'));
  });

/**
 * Opens a database as it is, without creating it: null when the device has none. An open without a version creates
 * an empty database at version 1, which Dexie would then have to upgrade; its creation is aborted instead.
 */
export function openExisting(factory: IDBFactory, name: string): Promise<IDBDatabase | null> {
  return new Promise((resolve, reject) => {
    let absent = false;
    const request = factory.open(name);
    request.onupgradeneeded = () => {
      absent = true;
      request.transaction?.abort();
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = (event) => {
      if (!absent) {
        reject(request.error ?? new Error('IndexedDB'));
        return;
      }
      // the abort above, not a failure
      event.preventDefault();
      resolve(null);
    };
  });
}

/**
 * The device's database (Novus) for reading, one connection kept like Dexie's: when a newer version of the app, in
 * another tab, asks for the database, it lets go at once (its upgrade is never blocked by this tab) and says so
 * (`getState` 'substituido', as NovusDatabase, for DatabaseNotice).
 */
export class LocalReader {
  private readonly name: string;
  private readonly version: number;
  private readonly factory: () => IDBFactory;
  private readonly upgrade: () => Promise<unknown>;
  private opening: Promise<IDBDatabase | null> | null = null;
  /** The connection once open, so a stale one's events never drop its successor. */
  private held: IDBDatabase | null = null;
  private state: DatabaseState = 'fechado';
  private readonly listeners = new Set<Listener>();

  constructor({ upgrade, name = LOCAL_DB_NAME, version = LOCAL_DB_VERSION, indexedDB }: LocalReaderOptions) {
    this.upgrade = upgrade;
    this.name = name;
    this.version = version;
    this.factory = indexedDB ?? (() => globalThis.indexedDB);
  }

  getState = (): DatabaseState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setState(state: DatabaseState): void {
    if (this.state === state || this.state === 'substituido') return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** The database's version as the browser reports it (21), or none yet. */
  async info(): Promise<Found<number>> {
    const db = await this.connect();
    return db === null ? { exists: false } : { exists: true, value: db.version };
  }

  /**
   * Every record of these stores, by store, read in one transaction; a store the database lacks reads as empty.
   * Photos come as stored: Blobs, or their bytes where the browser refuses Blobs (photo-encoding.ts).
   */
  async getAll(stores: readonly string[]): Promise<Found<Map<string, unknown[]>>> {
    for (let attempt = 0; ; attempt += 1) {
      const db = await this.connect();
      if (db === null) return { exists: false };
      try {
        const present = stores.filter((store) => db.objectStoreNames.contains(store));
        const found = new Map<string, unknown[]>(stores.map((store) => [store, []]));
        if (present.length === 0) return { exists: true, value: found };
        const transaction = db.transaction(present, 'readonly');
        // every request issued before the first await, so the transaction stays active for all of them
        const reads = present.map((store) => requestResult(transaction.objectStore(store).getAll()));
        const values = await Promise.all(reads);
        present.forEach((store, index) => found.set(store, values[index] ?? []));
        return { exists: true, value: found };
      } catch (error) {
        // iOS drops the connection of an app in the background (issue 25): open again, read once more
        if (attempt > 0 || !isConnectionLost(error)) throw error;
        this.forget(db);
      }
    }
  }

  /**
   * Calls `listener` after writes to the database commit, in this tab or another (what Dexie announces, so a record
   * saved or synced anywhere shows). Coalesced: once per `delayMs` at most.
   */
  onChange(listener: Listener, delayMs = 250): () => void {
    const prefix = `idb://${this.name}/`;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onParts = (parts: unknown) => {
      if (timer !== null || typeof parts !== 'object' || parts === null) return;
      if (!Object.keys(parts).some((part) => part.startsWith(prefix))) return;
      timer = setTimeout(() => {
        timer = null;
        listener();
      }, delayMs);
    };
    const onEvent = (event: Event) => onParts(event instanceof CustomEvent ? event.detail : null);
    const hasWindow = typeof addEventListener === 'function' && typeof removeEventListener === 'function';
    if (hasWindow) addEventListener(DEXIE_MUTATED, onEvent);
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(DEXIE_MUTATED);
    if (channel) channel.onmessage = (event: MessageEvent) => onParts(event.data);
    return () => {
      if (hasWindow) removeEventListener(DEXIE_MUTATED, onEvent);
      channel?.close();
      if (timer !== null) clearTimeout(timer);
    };
  }

  /** Closes the connection (tests; a page going away needs nothing). */
  close(): void {
    if (this.held) this.forget(this.held);
  }

  private connect(): Promise<IDBDatabase | null> {
    // An absent database is asked for again next time (a sync creates it), and so is one that failed to open.
    this.opening ??= this.open().then(
      (db) => {
        if (db === null) this.opening = null;
        return db;
      },
      (error: unknown) => {
        this.opening = null;
        throw error;
      },
    );
    return this.opening;
  }

  private async open(): Promise<IDBDatabase | null> {
    let db = await openExisting(this.factory(), this.name);
    if (db !== null && db.version < this.version) {
      // An older version's database: Dexie upgrades it (and tells of an old tab blocking that), then it is read.
      db.close();
      await this.upgrade();
      db = await openExisting(this.factory(), this.name);
    }
    if (db === null) return null;
    const opened = db;
    opened.onversionchange = (event) => {
      this.forget(opened);
      // null: the database is being deleted, not replaced by a newer version
      if (event.newVersion !== null) this.setState('substituido');
    };
    // closed by the browser itself (storage cleared): the next read opens it again
    opened.onclose = () => this.forget(opened);
    this.held = opened;
    this.setState('aberto');
    return opened;
  }

  private forget(db: IDBDatabase): void {
    db.close();
    if (this.held !== db) return;
    this.held = null;
    this.opening = null;
  }
}

/** The size each copy recorded when kept (copias.ts `Copia.bytes`). */
function bytesOfCopia(copia: unknown): number {
  if (typeof copia !== 'object' || copia === null || !('bytes' in copia)) return 0;
  return typeof copia.bytes === 'number' ? copia.bytes : 0;
}

/**
 * What the copies of what was sent take (copias.ts), for the storage panel: read and let go at once, one copy at a
 * time (a copy holds its photos). None when the device keeps none yet.
 */
export async function readCopiasResumo(
  factory: IDBFactory = globalThis.indexedDB,
): Promise<{ registros: number; bytes: number }> {
  const db = await openExisting(factory, COPIAS_DB_NAME);
  if (db === null) return { registros: 0, bytes: 0 };
  try {
    if (!db.objectStoreNames.contains('copia')) return { registros: 0, bytes: 0 };
    const cursor = db.transaction('copia', 'readonly').objectStore('copia').openCursor();
    return await new Promise((resolve, reject) => {
      let registros = 0;
      let bytes = 0;
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (at === null) {
          resolve({ registros, bytes });
          return;
        }
        registros += 1;
        bytes += bytesOfCopia(at.value);
        at.continue();
      };
      cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB'));
    });
  } finally {
    db.close();
  }
}
