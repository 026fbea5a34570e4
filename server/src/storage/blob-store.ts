// Photo bytes at rest, addressed by their SHA-256: streamed to disk and hashed on the way, never buffered whole.
// A local directory by default; S3-compatible object storage with PHOTO_STORE=s3://… (s3-blob-store.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ImageCheck } from './image-check.ts';

export { NotAnImageError } from './image-check.ts';

export interface StoredBlob {
  hash: string;
  size: number;
  mediaType: string;
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
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  }

  async check(): Promise<void> {
    // New photos are written to tmp/ first: it must exist and be writable.
    await fs.promises.access(path.join(this.root, 'tmp'), fs.constants.R_OK | fs.constants.W_OK);
  }

  private pathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  /** The hash-prefix folders known to exist, so an upload does not ask the file system again (issue 22). */
  private readonly folders = new Set<string>();

  async putImage(stream: Readable): Promise<StoredBlob> {
    const tmp = path.join(this.root, 'tmp', crypto.randomUUID());
    let moved = false;
    try {
      const blob = await receiveImage(stream, tmp);
      const target = this.pathOf(blob.hash);
      const folder = path.dirname(target);
      if (!this.folders.has(folder)) {
        await fs.promises.mkdir(folder, { recursive: true });
        this.folders.add(folder);
      }
      // Same bytes, same name: a replay or a duplicate photo just lands on the file already there.
      await fs.promises.rename(tmp, target).catch(async (error: unknown) => {
        // The folder was removed behind our back (an operator, a test): make it again, once.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await fs.promises.mkdir(folder, { recursive: true });
        await fs.promises.rename(tmp, target);
      });
      moved = true;
      return blob;
    } finally {
      if (!moved) await fs.promises.rm(tmp, { force: true });
    }
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
}

/** Chunks held before they are written together: a photo of the field (150 KB–1 MB) is one write, not a dozen. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Writes a stream to the file tmp, hashing it and checking it is a whole photo (ImageCheck) on the way; rejects
 * with NotAnImageError when it is not. The caller moves the file to where it belongs, and removes tmp. At most
 * WRITE_BATCH_BYTES are held at a time: the bytes go to the file in batches as they arrive, never held whole.
 */
export async function receiveImage(stream: Readable, tmp: string): Promise<StoredBlob> {
  const hasher = crypto.createHash('sha256');
  const check = new ImageCheck();
  let size = 0;
  const file = await fs.promises.open(tmp, 'w');
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
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      check.update(chunk);
      hasher.update(chunk);
      size += chunk.length;
      batch.push(chunk);
      batched += chunk.length;
      if (batched >= WRITE_BATCH_BYTES) await flush();
    }
    await flush();
  } finally {
    await file.close();
  }
  const { mediaType } = check.result();
  return { hash: hasher.digest('hex'), size, mediaType };
}
