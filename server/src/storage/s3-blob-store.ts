// Photo bytes in S3-compatible object storage (PHOTO_STORE=s3://bucket/prefix), addressed by their SHA-256 as in
// the local folder: key `{prefix}/{first two hex digits}/{hash}`. A photo is streamed to a temporary file of this
// server while it is hashed and checked (its key is its hash, known only at the end), then streamed to the bucket
// once, unless that key already holds it (a replay or the same photo twice). Never buffered whole either way;
// browsers read it through the server's access check (the photo route streams the object through).
// Basemap archives (several GB) take the same way under `{prefix}mapas/`, sent by a multipart upload (a single PUT
// stops at 5 GB) and read back by ranges (GetObject with Range).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AppError } from '../errors.ts';
import {
  ARCHIVE_SPACE,
  ArchiveReadError,
  type BlobCheck,
  type BlobStore,
  type ListedPhoto,
  LocalBlobStore,
  type ReceiveOptions,
  receiveBlob,
  receiveImage,
  removeTmpFiles,
  type StoredArchive,
  type StoredBlob,
} from './blob-store.ts';

export const PHOTO_STORE_UNAVAILABLE =
  'O armazenamento de fotos está indisponível no momento. Tente enviar novamente em instantes.';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface S3Location {
  bucket: string;
  /** '' or a prefix ending in '/'. */
  prefix: string;
}

/** `s3://bucket/some/prefix` → { bucket, prefix: 'some/prefix/' }; undefined when the value is no s3:// URL. */
export function parseS3Url(value: string): S3Location | undefined {
  const found = /^s3:\/\/([^/]+)\/?(.*)$/.exec(value.trim());
  if (!found?.[1]) return undefined;
  const prefix = (found[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: found[1], prefix: prefix ? `${prefix}/` : '' };
}

/**
 * The client from the usual AWS variables: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL (an S3-compatible server such
 * as MinIO, addressed path-style), AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or any other source
 * the SDK's default chain reads).
 */
export function s3ClientConfig(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  return {
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
      : {}),
    // Checksums only where S3 requires them: S3-compatible servers do not all take the SDK's default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer fails the request instead of holding it (and the technician's upload) for ever.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  };
}

export class S3BlobStore implements BlobStore {
  private readonly tmpDir: string;
  /** An archive's multipart upload sends parts of this size (S3's smallest is 5 MiB), four at a time. */
  archivePartSize = 16 * 1024 * 1024;

  constructor(
    readonly client: S3Client,
    readonly location: S3Location,
    tmpDir: string = path.join(os.tmpdir(), 'novus-fotos-s3'),
  ) {
    this.tmpDir = tmpDir;
    fs.mkdirSync(tmpDir, { recursive: true });
  }

  /** The store at location with the client of the AWS_* variables (s3ClientConfig). */
  static fromLocation(location: S3Location, env: NodeJS.ProcessEnv = process.env): S3BlobStore {
    return new S3BlobStore(new S3Client(s3ClientConfig(env)), location);
  }

  /**
   * Rejects when the bucket does not answer (GET /api/health): the HEAD of a photo key no photo has (all zeros),
   * which works with the permissions the store needs anyway (HeadBucket is refused by some S3-compatible servers).
   */
  async check(): Promise<void> {
    await this.has('0'.repeat(64));
  }

  keyOf(hash: string): string {
    return `${this.location.prefix}${hash.slice(0, 2)}/${hash}`;
  }

  async putImage(stream: Readable): Promise<StoredBlob> {
    const tmp = path.join(this.tmpDir, crypto.randomUUID());
    try {
      const blob = await receiveImage(stream, tmp);
      // Same bytes, same key: a replay or a duplicate photo is not sent again.
      if (!(await this.has(blob.hash))) {
        await this.call(() =>
          this.client.send(
            new PutObjectCommand({
              Bucket: this.location.bucket,
              Key: this.keyOf(blob.hash),
              Body: fs.createReadStream(tmp),
              ContentLength: blob.size,
              ContentType: blob.mediaType,
            }),
          ),
        );
      }
      return blob;
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  archiveKeyOf(hash: string): string {
    return `${this.location.prefix}${ARCHIVE_SPACE}/${hash.slice(0, 2)}/${hash}`;
  }

  async putArchive<R>(
    stream: Readable,
    check: BlobCheck<R>,
    options: ReceiveOptions = {},
  ): Promise<StoredArchive<R>> {
    const tmp = path.join(this.tmpDir, crypto.randomUUID());
    try {
      const received = await receiveBlob(stream, tmp, check, options);
      if (!(await this.hasArchive(received.hash))) {
        // Multipart: parts of archivePartSize, four at a time, read from the file (never held whole).
        const upload = new Upload({
          client: this.client,
          params: {
            Bucket: this.location.bucket,
            Key: this.archiveKeyOf(received.hash),
            Body: fs.createReadStream(tmp),
            ContentType: 'application/vnd.pmtiles',
          },
          partSize: this.archivePartSize,
          queueSize: 4,
          leavePartsOnError: false,
        });
        await this.call(() => upload.done());
      }
      return received;
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  async readArchive(hash: string, offset: number, length: number): Promise<Uint8Array> {
    if (!SHA256_HEX.test(hash) || length <= 0) throw new ArchiveReadError('no such archive');
    try {
      const object = await this.call(() =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.location.bucket,
            Key: this.archiveKeyOf(hash),
            Range: `bytes=${offset}-${offset + length - 1}`,
          }),
        ),
      );
      if (!object.Body) throw new ArchiveReadError('empty answer');
      return await object.Body.transformToByteArray();
    } catch (error) {
      // A range past the end (416) is the caller's mistake, not the store being down.
      const inner = error instanceof PhotoStoreUnavailableError ? error.reason : error;
      const status = (inner as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (isMissing(inner) || status === 416) throw new ArchiveReadError(String(inner));
      throw error;
    }
  }

  async removeArchive(hash: string): Promise<void> {
    if (!SHA256_HEX.test(hash)) return;
    await this.call(() =>
      this.client.send(
        new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.archiveKeyOf(hash) }),
      ),
    );
  }

  async hasArchive(hash: string): Promise<boolean> {
    if (!SHA256_HEX.test(hash)) return false;
    try {
      await this.call(() =>
        this.client.send(
          new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.archiveKeyOf(hash) }),
        ),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Whether the bucket holds bytes under hash (a HEAD: nothing is read). */
  async has(hash: string): Promise<boolean> {
    return (await this.head(hash)) !== undefined;
  }

  /** The object's size, or undefined when the bucket does not hold hash. */
  async sizeOf(hash: string): Promise<number | undefined> {
    return (await this.head(hash))?.ContentLength;
  }

  /** The object's metadata (a HEAD), or undefined when the bucket does not hold hash. */
  private async head(hash: string): Promise<HeadObjectCommandOutput | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    try {
      return await this.call(() =>
        this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(hash) })),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async open(hash: string): Promise<Readable | undefined> {
    if (!SHA256_HEX.test(hash)) return undefined;
    try {
      const object = await this.call(() =>
        this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(hash) })),
      );
      return object.Body as Readable | undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async remove(hash: string): Promise<void> {
    if (!SHA256_HEX.test(hash)) return;
    await this.call(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(hash) })),
    );
  }

  /** Keys asked for per ListObjectsV2 page (S3 answers at most 1000). */
  listPageSize = 1000;

  /** The photo keys under the prefix, a page at a time; the archives' keys (`mapas/`) and any other are skipped. */
  async *listPhotos(): AsyncIterable<ListedPhoto[]> {
    const { bucket, prefix } = this.location;
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            ...(prefix ? { Prefix: prefix } : {}),
            ...(token ? { ContinuationToken: token } : {}),
            MaxKeys: this.listPageSize,
          }),
        ),
      );
      const photos: ListedPhoto[] = [];
      for (const object of page.Contents ?? []) {
        const found = /^([0-9a-f]{2})\/([0-9a-f]{64})$/.exec((object.Key ?? '').slice(prefix.length));
        if (!found?.[1] || !found[2]?.startsWith(found[1]) || !object.LastModified) continue;
        photos.push({ hash: found[2], modifiedAt: object.LastModified.getTime(), size: object.Size ?? 0 });
      }
      yield photos;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * A HEAD, then the DELETE. A photo already in the bucket is not sent again (putImage), so its time does not move
   * when a request stores it again: here only the grace period and the check of the rows just before protect it.
   */
  async removeIfOlder(hash: string, before: number): Promise<boolean> {
    const head = await this.head(hash);
    if (!head || (head.LastModified?.getTime() ?? before) >= before) return false;
    await this.remove(hash);
    return true;
  }

  /** The temporary copies this server made on their way to the bucket (tmpDir). */
  async removeTmp(before?: number): Promise<number> {
    return removeTmpFiles(this.tmpDir, before);
  }

  /** A store that cannot be reached (down, refused, wrong credentials) is a 503 with a Portuguese message. */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMissing(error)) throw error;
      throw new PhotoStoreUnavailableError(error);
    }
  }
}

/** The photo store a configuration names: PHOTO_STORE's bucket, else the folder DATA_DIR/fotos. */
export function openPhotoStore(config: { dataDir: string; photoStore: S3Location | undefined }): BlobStore {
  return config.photoStore
    ? S3BlobStore.fromLocation(config.photoStore)
    : new LocalBlobStore(path.join(config.dataDir, 'fotos'));
}

/** The store could not be reached: a 503 for the client; what went wrong (`reason`) is for the server's log. */
export class PhotoStoreUnavailableError extends AppError {
  // Not `cause`: the error handler reads a cause of ECONNREFUSED as the database being down.
  constructor(readonly reason: unknown) {
    super(503, PHOTO_STORE_UNAVAILABLE);
  }
}

function isMissing(error: unknown): boolean {
  if (error instanceof AppError) return false;
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return (
    failure?.name === 'NoSuchKey' ||
    failure?.name === 'NotFound' ||
    failure?.$metadata?.httpStatusCode === 404
  );
}
