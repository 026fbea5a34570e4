// Photo bytes at rest, addressed by their SHA-256: streamed to disk and hashed on the way, never buffered whole.
// A local directory by default; S3-compatible object storage with PHOTO_STORE=s3://… (s3-blob-store.ts).
// Basemap archives (issue 23, PMTiles of several GB) go through the same machinery into a space of their own
// (`mapas/` beside the photos' hash folders): checked by their own check on the way in, read back by ranges, and
// out of reach of the PhotoSweeper, which removes photo keys only.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  FolderSyncs,
  nodeFileSystem,
  type StoreFile,
  type StoreFileSystem,
  syncFolder,
} from './durable-files.ts';
import { ImageCheck } from './image-check.ts';
import type { PhotoExif } from './photo-exif.ts';

export { NotAnImageError } from './image-check.ts';

export interface StoredBlob {
  hash: string;
  size: number;
  mediaType: string;
  /** What the photo's EXIF says of when and where it was taken (a JPEG that keeps it). */
  exif?: PhotoExif;
}

export interface BlobStore {
  /** Stores a stream; rejects with NotAnImageError (its message says why) when it is no whole photo (ImageCheck). */
  putImage(stream: Readable): Promise<StoredBlob>;
  /** The bytes stored under hash, or undefined when there are none; a remote store answers asynchronously. */
  open(hash: string): Readable | undefined | Promise<Readable | undefined>;
  /** Deletes the bytes stored under hash (nothing when there are none); callers check no row refers to them. */
  remove(hash: string): Promise<void>;
  /**
   * When the bytes under hash were last stored (ms since the epoch), undefined when there are none or the store
   * cannot say: the PhotoSweeper leaves alone a photo stored again after the request that stored it ended.
   */
  modifiedAt?(hash: string): Promise<number | undefined>;
  /** Rejects when the store cannot take photos now (GET /api/health); a store without it is taken as answering. */
  check?(): Promise<void>;
  /**
   * Stores an archive (a basemap package) in the archives' space, streamed to a temporary file while it is hashed
   * and checked (`check`), never held whole; rejects with what the check or the size limit threw, storing nothing.
   */
  putArchive<R>(stream: Readable, check: BlobCheck<R>, options?: ReceiveOptions): Promise<StoredArchive<R>>;
  /** `length` bytes of the archive under hash from `offset` (fewer at its end); rejects when there is none. */
  readArchive(hash: string, offset: number, length: number): Promise<Uint8Array>;
  /** Deletes the archive under hash (nothing when there is none); callers check no project refers to it. */
  removeArchive(hash: string): Promise<void>;
  /** Whether the archives' space holds hash. */
  hasArchive(hash: string): Promise<boolean>;
  /**
   * Every photo the store holds, in batches (a folder, a page of keys), with when each was last stored: what the
   * sweep and `fotos:verificar` walk. The archives' space and the temporary files are never listed.
   */
  listPhotos(): AsyncIterable<ListedPhoto[]>;
  /**
   * Removes the photo under hash unless it was stored at `before` or later (a request storing it again since it was
   * listed); true when it removed it. Callers check no row refers to it.
   */
  removeIfOlder(hash: string, before: number): Promise<boolean>;
  /**
   * Removes the temporary files (uploads a crash cut off) last written before `before`, every one without it: only
   * where no other process may be writing one (at start, before a cluster forks). How many it removed.
   */
  removeTmp(before?: number): Promise<number>;
}

/** A photo as a store lists it: when it was last stored (ms since the epoch) and its size in bytes. */
export interface ListedPhoto {
  hash: string;
  modifiedAt: number;
  size: number;
}

/**
 * What a stream must be to be stored, judged on the way in: `update` sees every chunk as it arrives (throw to
 * refuse early, before the rest is read), `finish` the whole file once written (it may read it by ranges).
 */
export interface BlobCheck<R> {
  update(chunk: Buffer): void;
  finish(file: string, size: number): Promise<R> | R;
}

export interface ReceiveOptions {
  /** Past this many bytes the stream is refused (BlobTooLargeError) while it is read. */
  maxBytes?: number;
  /** Leave the stream alive when it is refused (an HTTP request body: the answer still goes out on its socket). */
  keepStream?: boolean;
}

export interface StoredArchive<R> {
  hash: string;
  size: number;
  /** What the check found. */
  checked: R;
}

/** A stream past ReceiveOptions.maxBytes. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
  }
}

/** A missing archive or a range past its end. */
export class ArchiveReadError extends Error {}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Photos in a local folder, `{root}/{ab}/{hash}`, durable before `putImage` resolves: each is written to tmp/,
 * fsynced, renamed onto its hash and its folder fsynced, so the record's commit that follows never refers to bytes a
 * power cut can take (DESIGN.md 'Durability contract').
 */
export class LocalBlobStore implements BlobStore {
  private readonly folderSyncs: FolderSyncs;

  constructor(
    private readonly root: string,
    /** The file system calls, in tests a recording of them; Node's own by default. */
    private readonly files: StoreFileSystem = nodeFileSystem,
  ) {
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
    this.folderSyncs = new FolderSyncs(files);
  }

  async check(): Promise<void> {
    // New photos are written to tmp/ first: it must exist and be writable.
    await fs.promises.access(path.join(this.root, 'tmp'), fs.constants.R_OK | fs.constants.W_OK);
  }

  private pathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  /** Archives live under mapas/, a name no photo folder (two hex digits) can take. */
  private archivePath(hash: string): string {
    return path.join(this.root, ARCHIVE_SPACE, hash.slice(0, 2), hash);
  }

  /** The hash-prefix folders known to exist, so an upload does not ask the file system again (issue 22). */
  private readonly folders = new Set<string>();

  /** Files written to tmp/ are fsynced before they are closed. */
  private readonly sink: FileSink = {
    open: (file) => this.files.open(file, 'w'),
    sync: true,
  };

  async putImage(stream: Readable): Promise<StoredBlob> {
    const tmp = path.join(this.root, 'tmp', crypto.randomUUID());
    let moved = false;
    try {
      const blob = await receiveImage(stream, tmp, this.sink);
      await this.moveInto(tmp, this.pathOf(blob.hash));
      moved = true;
      return blob;
    } finally {
      if (!moved) await this.files.rm(tmp);
    }
  }

  /**
   * Renames the finished (synced) tmp file onto its name and syncs the folder, so the name survives a power cut as
   * the bytes do; a duplicate lands on the file there, same bytes. When the folder's sync fails the file stays under
   * its name (another request may refer to it) and the error goes up: nothing is acknowledged, and the sweep removes
   * the file if no record refers to it.
   */
  private async moveInto(tmp: string, target: string): Promise<void> {
    const folder = path.dirname(target);
    if (!this.folders.has(folder)) {
      await this.makeFolder(folder);
      this.folders.add(folder);
    }
    await this.files.rename(tmp, target).catch(async (error: unknown) => {
      // The folder was removed behind our back (an operator, a test): make it again, once.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await this.makeFolder(folder);
      await this.files.rename(tmp, target);
    });
    await this.folderSyncs.sync(folder);
  }

  /** Makes a folder under the root (and mapas/ for an archive's), its entry synced into the folders above it. */
  private async makeFolder(folder: string): Promise<void> {
    await this.files.mkdir(folder);
    for (let parent = path.dirname(folder); parent.startsWith(this.root); parent = path.dirname(parent)) {
      await syncFolder(this.files, parent);
      if (parent === this.root) break;
    }
  }

  async putArchive<R>(
    stream: Readable,
    check: BlobCheck<R>,
    options: ReceiveOptions = {},
  ): Promise<StoredArchive<R>> {
    const tmp = path.join(this.root, 'tmp', crypto.randomUUID());
    let moved = false;
    try {
      const received = await receiveBlob(stream, tmp, check, options, this.sink);
      await this.moveInto(tmp, this.archivePath(received.hash));
      moved = true;
      return received;
    } finally {
      if (!moved) await this.files.rm(tmp);
    }
  }

  async readArchive(hash: string, offset: number, length: number): Promise<Uint8Array> {
    if (!SHA256.test(hash)) throw new ArchiveReadError('no such archive');
    const file = await fs.promises.open(this.archivePath(hash), 'r').catch((error: unknown) => {
      throw new ArchiveReadError(`no such archive: ${String(error)}`);
    });
    try {
      return await readAt(file, offset, length);
    } finally {
      await file.close();
    }
  }

  async removeArchive(hash: string): Promise<void> {
    if (!SHA256.test(hash)) return;
    await fs.promises.rm(this.archivePath(hash), { force: true });
  }

  async hasArchive(hash: string): Promise<boolean> {
    if (!SHA256.test(hash)) return false;
    return fs.promises.access(this.archivePath(hash)).then(
      () => true,
      () => false,
    );
  }

  open(hash: string): Readable | undefined {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const file = this.pathOf(hash);
    return fs.existsSync(file) ? fs.createReadStream(file) : undefined;
  }

  async remove(hash: string): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return;
    await fs.promises.rm(this.pathOf(hash), { force: true });
  }

  /** A store renames a new file onto the name, so the file's time is the last store's. */
  async modifiedAt(hash: string): Promise<number | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const stat = await fs.promises.stat(this.pathOf(hash)).catch(() => undefined);
    return stat?.mtimeMs;
  }

  /** The `{ab}/` folders in order, a batch of at most LIST_BATCH photos at a time; mapas/ and tmp/ are no such folder. */
  async *listPhotos(): AsyncIterable<ListedPhoto[]> {
    const folders = (await fs.promises.readdir(this.root, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && /^[0-9a-f]{2}$/.test(entry.name))
      .map((entry) => entry.name)
      .sort();
    for (const folder of folders) {
      const names = await fs.promises.readdir(path.join(this.root, folder)).catch(() => []);
      const hashes = names.filter((name) => SHA256.test(name) && name.startsWith(folder)).sort();
      for (let start = 0; start < hashes.length; start += LIST_BATCH) {
        const batch = await Promise.all(
          hashes.slice(start, start + LIST_BATCH).map(async (hash) => {
            // Gone since the folder was read (removed meanwhile): not listed.
            const stat = await fs.promises.stat(this.pathOf(hash)).catch(() => undefined);
            return stat?.isFile() ? { hash, modifiedAt: stat.mtimeMs, size: stat.size } : undefined;
          }),
        );
        yield batch.filter((photo) => photo !== undefined);
      }
    }
  }

  /**
   * Moves the file out of its name first (an atomic rename into tmp/), then reads its time: a request that stored
   * the photo again before the move renamed a new file onto the name, whose time is recent, and gets it back; one
   * that stores it after the move makes a new file. So a photo being stored again is never lost, however close.
   */
  async removeIfOlder(hash: string, before: number): Promise<boolean> {
    if (!SHA256.test(hash)) return false;
    const file = this.pathOf(hash);
    const doomed = path.join(this.root, 'tmp', `sweep-${crypto.randomUUID()}`);
    try {
      await this.files.rename(file, doomed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    const stat = await fs.promises.stat(doomed).catch((error: unknown) => {
      // Removed from tmp/ meanwhile by the sweep of another process (a photo older than the grace): gone either way.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    if (!stat) return true;
    if (stat.mtimeMs >= before) {
      // Synced bytes (a store syncs a file before naming it): back under its name, the name made durable again.
      await this.files.rename(doomed, file);
      await this.folderSyncs.sync(path.dirname(file));
      return false;
    }
    await this.files.rm(doomed);
    return true;
  }

  async removeTmp(before?: number): Promise<number> {
    return removeTmpFiles(path.join(this.root, 'tmp'), before);
  }
}

/** Photos listed (and asked about) at a time. */
const LIST_BATCH = 1000;

/** Removes the files of a temporary folder last written before `before` (every one without it); how many. */
export async function removeTmpFiles(folder: string, before?: number): Promise<number> {
  const names = await fs.promises.readdir(folder).catch(() => []);
  let removed = 0;
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.promises.lstat(file).catch(() => undefined);
    if (!stat || (before !== undefined && stat.mtimeMs >= before)) continue;
    await fs.promises.rm(file, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** The archives' space in a store: `mapas/{ab}/{hash}` (local folder and S3 keys alike). */
export const ARCHIVE_SPACE = 'mapas';

/** `length` bytes of an open file from `offset`, fewer at its end; a read that starts past the end is an error. */
export async function readAt(
  file: fs.promises.FileHandle,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await file.read(buffer, read, length - read, offset + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  if (read === 0 && length > 0) throw new ArchiveReadError(`nothing at ${offset}`);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, read);
}

/** Where receiveBlob writes: the file it opens, and whether its bytes are synced before it is closed. */
export interface FileSink {
  open(file: string): Promise<StoreFile>;
  sync: boolean;
}

/** A temporary copy that goes elsewhere next (the S3 store's): written, not synced. */
const UNSYNCED: FileSink = { open: (file) => nodeFileSystem.open(file, 'w'), sync: false };

/** Chunks held before they are written together: a photo of the field (150 KB–1 MB) is one write, not a dozen. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Writes a stream to the file tmp, hashing it and checking it is a whole photo (ImageCheck) on the way; rejects
 * with NotAnImageError when it is not. The caller moves the file to where it belongs, and removes tmp.
 */
export async function receiveImage(stream: Readable, tmp: string, sink?: FileSink): Promise<StoredBlob> {
  const check = new ImageCheck();
  const { hash, size, checked } = await receiveBlob(
    stream,
    tmp,
    {
      update: (chunk) => check.update(chunk),
      finish: () => check.result(),
    },
    {},
    sink,
  );
  return { hash, size, mediaType: checked.mediaType, ...(checked.exif ? { exif: checked.exif } : {}) };
}

/**
 * Writes a stream to the file tmp, hashing it (SHA-256) and passing it through `check` on the way; rejects with
 * what the check threw, or BlobTooLargeError past `maxBytes`. The caller moves the file to where it belongs, and
 * removes tmp. At most WRITE_BATCH_BYTES are held at a time: the bytes go to the file in batches as they arrive.
 */
export async function receiveBlob<R>(
  stream: Readable,
  tmp: string,
  check: BlobCheck<R>,
  { maxBytes = Infinity, keepStream = false }: ReceiveOptions = {},
  sink: FileSink = UNSYNCED,
): Promise<StoredArchive<R>> {
  const hasher = crypto.createHash('sha256');
  let size = 0;
  const file = await sink.open(tmp);
  // A refused request body is left alive (not destroyed with its socket), so the refusal reaches the client.
  const chunks = (keepStream ? stream.iterator({ destroyOnReturn: false }) : stream) as AsyncIterable<Buffer>;
  try {
    let batch: Buffer[] = [];
    let batched = 0;
    const flush = async () => {
      if (batched === 0) return;
      const chunks = batch;
      const length = batched;
      batch = [];
      batched = 0;
      const { bytesWritten } = await file.writev(chunks);
      // A short write (the disk filling up, say) is finished or fails, never left with a hole.
      if (bytesWritten < length) await file.write(Buffer.concat(chunks).subarray(bytesWritten));
    };
    for await (const chunk of chunks) {
      size += chunk.length;
      if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
      check.update(chunk);
      hasher.update(chunk);
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH_BYTES) await flush();
    }
    await flush();
    // Synced before it is renamed onto its name: a name must never point at bytes a power cut can take.
    if (sink.sync) await file.sync();
  } finally {
    await file.close();
  }
  const checked = await check.finish(tmp, size);
  return { hash: hasher.digest('hex'), size, checked };
}
