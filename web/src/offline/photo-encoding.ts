// How photos are kept in IndexedDB (issue 40): as Blobs, which the engine loads only when read, or, on a device whose
// engine refuses Blobs (WebKit in a private window, WebKitGTK's automation session), as their bytes beside their type.
// Every database of the device that holds photos (Novus, NovusCopias) writes through `encode` and reads through
// `decode`, so the rest of the app sees Blobs either way.
import type { DBCore, Dexie, Middleware } from 'dexie';
import { isBlobRefused } from './idb-errors';

/** A photo as stored where Blobs are refused. */
export interface FotoBytes {
  bytes: ArrayBuffer;
  type: string;
}

/** The device refused a Blob once: the next load stores bytes from the start (a private window keeps it while open). */
export const FOTOS_EM_BYTES_KEY = 'novus.fotosEmBytes';

/** Where the mode is remembered: localStorage's part of it (restated, so the server's tests need no DOM types). */
export interface ModeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function isFotoBytes(value: unknown): value is FotoBytes {
  return (
    typeof value === 'object' &&
    value !== null &&
    'bytes' in value &&
    value.bytes instanceof ArrayBuffer &&
    'type' in value &&
    typeof value.type === 'string'
  );
}

/** What a stored photo takes, in either form. */
export function storedSize(foto: Blob | FotoBytes | null | undefined): number {
  if (!foto) return 0;
  return foto instanceof Blob ? foto.size : foto.bytes.byteLength;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** `value` with every part `swap` changes swapped, copied along the way only; `value` itself when none changes. */
function swapped(value: unknown, swap: (part: unknown) => unknown): unknown {
  const own = swap(value);
  if (own !== value) return own;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item: unknown, index) => {
      const next = swapped(item, swap);
      if (next === item) return;
      copy ??= [...value];
      copy[index] = next;
    });
    return copy ?? value;
  }
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const next = swapped(item, swap);
      if (next === item) continue;
      copy ??= { ...value };
      copy[key] = next;
    }
    return copy ?? value;
  }
  return value;
}

function blobsIn(value: unknown, found: Blob[] = []): Blob[] {
  if (value instanceof Blob) found.push(value);
  else if (Array.isArray(value)) for (const item of value) blobsIn(item, found);
  else if (isPlainObject(value)) for (const item of Object.values(value)) blobsIn(item, found);
  return found;
}

export class PhotoEncoding {
  private bytesMode: boolean;
  /**
   * The bytes behind each Blob made or read while photos are stored as bytes: a write inside a transaction cannot
   * await a Blob's read (the transaction would commit under it), so it takes them from here.
   */
  private readonly bytesOf = new WeakMap<Blob, FotoBytes>();

  /** `storage` remembers the mode across loads (localStorage in the app); without it, this load only. */
  constructor(private readonly storage?: ModeStorage) {
    let remembered = false;
    try {
      remembered = storage?.getItem(FOTOS_EM_BYTES_KEY) === 'sim';
    } catch {
      // storage out of reach: the first refused write tells again
    }
    this.bytesMode = remembered;
  }

  /** Photos are stored as bytes on this device. */
  get storesBytes(): boolean {
    return this.bytesMode;
  }

  /** The engine refused a Blob: photos are stored as bytes from now on, on this load and the next. */
  useBytes(): void {
    this.bytesMode = true;
    try {
      this.storage?.setItem(FOTOS_EM_BYTES_KEY, 'sim');
    } catch {
      // a full or blocked localStorage: this load still knows, the next finds out again
    }
  }

  /**
   * A write of photos: when the engine refuses its Blobs, the device switches to bytes and runs it once more. `write`
   * calls `prepare` on what it brings from outside its transaction, so the second run has those Blobs' bytes.
   */
  async storing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (this.bytesMode || !isBlobRefused(error)) throw error;
      this.useBytes();
      return write();
    }
  }

  /** A photo's Blob made from bytes already read (the copy the device stores); its bytes kept while storing bytes. */
  blobOf(bytes: ArrayBuffer, type: string): Blob {
    const blob = new Blob([bytes], { type });
    if (this.bytesMode) this.bytesOf.set(blob, { bytes, type });
    return blob;
  }

  /**
   * Before a transaction that writes these values: reads the bytes of their Blobs not known yet. A Blob that cannot
   * be read stays a Blob (the write then fails as it would have).
   */
  async prepare(...values: unknown[]): Promise<void> {
    if (!this.bytesMode) return;
    for (const blob of blobsIn(values)) {
      if (this.bytesOf.has(blob)) continue;
      try {
        this.bytesOf.set(blob, { bytes: await blob.arrayBuffer(), type: blob.type });
      } catch {
        // unreadable already: nothing to store in its place
      }
    }
  }

  /** A value as IndexedDB gets it: its Blobs as bytes while the device stores bytes, else itself. */
  encode(value: unknown): unknown {
    if (!this.bytesMode) return value;
    return swapped(value, (part) => (part instanceof Blob ? (this.bytesOf.get(part) ?? part) : part));
  }

  /** A value as IndexedDB gave it, its photos as Blobs whatever form they were stored in. */
  decode(value: unknown): unknown {
    return swapped(value, (part) => (isFotoBytes(part) ? this.blobOf(part.bytes, part.type) : part));
  }

  /** Writes of `db` go through `encode`, reads through `decode`: call before the database opens. */
  install(db: Dexie): void {
    db.use(this.middleware());
    for (const table of db.tables) table.hook('reading', (stored: unknown) => this.decode(stored));
  }

  private middleware(): Middleware<DBCore> {
    return {
      stack: 'dbcore',
      name: 'PhotoEncoding',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return {
            ...table,
            mutate: (request) =>
              request.type === 'add' || request.type === 'put'
                ? table.mutate({ ...request, values: request.values.map((value) => this.encode(value)) })
                : table.mutate(request),
          };
        },
      }),
    };
  }
}
