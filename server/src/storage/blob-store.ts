// Photo bytes at rest, addressed by their SHA-256: streamed to disk and hashed on the way, never buffered whole.
// A local directory by default; an S3-compatible store can implement the same interface later.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  open(hash: string): Readable | undefined;
  /** Deletes the bytes stored under hash (nothing when there are none); callers check no row refers to them. */
  remove(hash: string): Promise<void>;
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
    const check = new ImageCheck();
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        check.update(chunk);
        hasher.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tap, fs.createWriteStream(tmp));
      const { mediaType } = check.result();
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
