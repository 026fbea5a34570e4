// The file system calls of the local photo store, in the order that makes a photo durable before its record is
// acknowledged (DESIGN.md 'Durability contract'): the file's bytes synced, the file renamed onto its name, the
// folder synced so the rename itself survives a power cut. Behind a small interface, so a test can record the
// order of the calls (server/test/blob-store-durable.test.ts).
import fs from 'node:fs';

/** The calls made on an open file. */
export interface StoreFile {
  writev(buffers: Buffer[]): Promise<{ bytesWritten: number }>;
  write(buffer: Buffer): Promise<unknown>;
  /** fsync(2): the file's bytes and size on stable storage. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The calls the local store makes on its folder. */
export interface StoreFileSystem {
  /** A new file to write ('w'), or a folder opened to be synced ('r'). */
  open(file: string, flags: 'w' | 'r'): Promise<StoreFile>;
  rename(from: string, to: string): Promise<void>;
  mkdir(folder: string): Promise<void>;
  rm(file: string): Promise<void>;
}

/** Node's own file system. */
export const nodeFileSystem: StoreFileSystem = {
  open: (file, flags) => fs.promises.open(file, flags),
  rename: (from, to) => fs.promises.rename(from, to),
  mkdir: async (folder) => {
    await fs.promises.mkdir(folder, { recursive: true });
  },
  rm: (file) => fs.promises.rm(file, { force: true }),
};

/**
 * fsync of folders, shared by the renames that need it: a rename waits for a sync that starts after it, and all the
 * renames made into a folder while one of its syncs runs share the next one. Under concurrent uploads into the same
 * folder that is one fsync for many renames, with no timer added to an upload alone.
 */
export class FolderSyncs {
  private readonly folders = new Map<string, FolderSync>();

  constructor(private readonly files: StoreFileSystem) {}

  /** Resolves once a sync of folder that started after this call has finished; rejects with its error. */
  sync(folder: string): Promise<void> {
    let state = this.folders.get(folder);
    if (!state) {
      state = { running: false, next: undefined };
      this.folders.set(folder, state);
    }
    if (state.next) return state.next.promise;
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const promise = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    state.next = { promise, ...settle };
    if (!state.running) void this.run(folder, state);
    return promise;
  }

  private async run(folder: string, state: FolderSync): Promise<void> {
    while (state.next) {
      const waiting = state.next;
      state.next = undefined;
      state.running = true;
      try {
        await syncFolder(this.files, folder);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
      state.running = false;
    }
    this.folders.delete(folder);
  }
}

interface FolderSync {
  running: boolean;
  next: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;
}

/** fsync(2) of a folder: its entries (a file renamed into it, a folder made in it) on stable storage. */
export async function syncFolder(files: StoreFileSystem, folder: string): Promise<void> {
  const handle = await files.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
