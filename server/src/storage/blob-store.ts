// Photo bytes at rest, addressed by their SHA-256: streamed to disk and hashed on the way, never buffered whole.
// A local directory by default; an S3-compatible store can implement the same interface later.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredBlob {
  hash: string;
  size: number;
  mediaType: string;
}

export interface BlobStore {
  /** Stores a stream; rejects with NotAnImageError when its first bytes are not a known image format. */
  putImage(stream: Readable): Promise<StoredBlob>;
  open(hash: string): Readable | undefined;
  /** Deletes the bytes stored under hash (nothing when there are none); callers check no row refers to them. */
  remove(hash: string): Promise<void>;
}

export class NotAnImageError extends Error {}

/** Image formats a phone camera produces, told apart by their first bytes (never by name or declared type). */
export function sniffImage(head: Buffer): string | undefined {
  const starts = (bytes: number[], offset = 0) => bytes.every((byte, i) => head[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  const brand = head.subarray(4, 12).toString('latin1');
  if (['ftypheic', 'ftypheix', 'ftypmif1', 'ftypmsf1'].includes(brand)) return 'image/heic';
  return undefined;
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  }

  private pathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  async putImage(stream: Readable): Promise<StoredBlob> {
    const tmp = path.join(this.root, 'tmp', crypto.randomUUID());
    const hasher = crypto.createHash('sha256');
    let head = Buffer.alloc(0);
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
        hasher.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tap, fs.createWriteStream(tmp));
      const mediaType = sniffImage(head);
      if (!mediaType) throw new NotAnImageError();
      const hash = hasher.digest('hex');
      const target = this.pathOf(hash);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Same bytes, same name: a replay or a duplicate photo just lands on the file already there.
      fs.renameSync(tmp, target);
      return { hash, size, mediaType };
    } finally {
      fs.rmSync(tmp, { force: true });
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
}
