// `npm run photos:migrate` (novus photos migrate): copies the local photo folder (DATA_DIR/fotos) to the S3 store
// of PHOTO_STORE, verifying each photo: its bytes must hash to its name before it is sent, and the object read back
// from the bucket must hash to it too. Resumable: an object already in the bucket with the file's size is skipped
// (an S3 PUT lands whole or not at all, and every copy this command made was read back), so a run cut off goes on
// where it stopped; --verificar-existentes reads those back as well. Prints progress and a summary; exits 1 when
// a photo could not be copied.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseS3Url, S3BlobStore } from '../storage/s3-blob-store.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface MigrationSummary {
  total: number;
  copied: number;
  /** Already in the bucket (and, with verifyExisting, read back whole). */
  skipped: number;
  failed: { hash: string; reason: string }[];
}

export interface MigrationOptions {
  /** Read back and re-hash the objects already in the bucket instead of trusting their size. */
  verifyExisting?: boolean;
  /** One line per step worth telling (progress every `every` photos, each failure, the summary). */
  log?: (line: string) => void;
  every?: number;
}

/** The photos of a LocalBlobStore folder: `{root}/{ab}/{hash}` (its tmp folder is skipped). */
export function localPhotos(root: string): { hash: string; file: string }[] {
  const photos: { hash: string; file: string }[] = [];
  for (const dir of fs.readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory() || !/^[0-9a-f]{2}$/.test(dir.name)) continue;
    for (const entry of fs.readdirSync(path.join(root, dir.name), { withFileTypes: true })) {
      if (entry.isFile() && SHA256_HEX.test(entry.name) && entry.name.startsWith(dir.name))
        photos.push({ hash: entry.name, file: path.join(root, dir.name, entry.name) });
    }
  }
  return photos.sort((a, b) => a.hash.localeCompare(b.hash));
}

async function sha256Of(stream: Readable): Promise<string> {
  const hasher = crypto.createHash('sha256');
  for await (const chunk of stream) hasher.update(chunk as Buffer);
  return hasher.digest('hex');
}

/** The hash of the bytes the bucket holds under hash, or undefined when it holds none. */
async function storedHash(store: S3BlobStore, hash: string): Promise<string | undefined> {
  const stream = await store.open(hash);
  return stream ? sha256Of(stream) : undefined;
}

export async function migratePhotos(
  root: string,
  store: S3BlobStore,
  { verifyExisting = false, log = () => undefined, every = 100 }: MigrationOptions = {},
): Promise<MigrationSummary> {
  const photos = localPhotos(root);
  const summary: MigrationSummary = { total: photos.length, copied: 0, skipped: 0, failed: [] };
  log(`${photos.length} foto(s) em ${root} → s3://${store.location.bucket}/${store.location.prefix}`);
  let done = 0;
  for (const { hash, file } of photos) {
    try {
      const size = (await fs.promises.stat(file)).size;
      const present = await store.sizeOf(hash);
      if (present === size && (!verifyExisting || (await storedHash(store, hash)) === hash)) {
        summary.skipped += 1;
      } else {
        const local = await sha256Of(fs.createReadStream(file));
        if (local !== hash) throw new Error(`o arquivo local não corresponde ao seu hash (${local})`);
        // A wrong object under this key (another size, or bytes that do not hash to it) is replaced.
        if (present !== undefined) await store.remove(hash);
        const put = await store.putImage(fs.createReadStream(file));
        if (put.hash !== hash) throw new Error(`bytes enviados com outro hash (${put.hash})`);
        const readBack = await storedHash(store, hash);
        if (readBack !== hash)
          throw new Error(`o objeto lido de volta não corresponde (${readBack ?? 'ausente'})`);
        summary.copied += 1;
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      summary.failed.push({ hash, reason });
      log(`FALHOU ${hash}: ${reason}`);
    }
    done += 1;
    if (done % every === 0 || done === photos.length)
      log(`${done}/${photos.length} (${summary.copied} copiada(s), ${summary.skipped} já no destino)`);
  }
  log(
    `Resumo: ${summary.total} foto(s); ${summary.copied} copiada(s) e verificada(s); ` +
      `${summary.skipped} já no destino; ${summary.failed.length} falha(s).`,
  );
  return summary;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      de: { type: 'string' },
      'verificar-existentes': { type: 'boolean', default: false },
    },
  });
  const location = parseS3Url(process.env.PHOTO_STORE ?? '');
  if (!location) {
    console.error('Defina PHOTO_STORE=s3://bucket/prefixo (e as variáveis AWS_*) para migrar as fotos.');
    process.exit(2);
  }
  const root = path.resolve(values.de ?? path.join(process.env.DATA_DIR ?? './data', 'fotos'));
  if (!fs.existsSync(root)) {
    console.error(`A pasta de fotos ${root} não existe.`);
    process.exit(2);
  }
  const summary = await migratePhotos(root, S3BlobStore.fromLocation(location), {
    verifyExisting: values['verificar-existentes'],
    log: (line) => console.log(line),
  });
  process.exit(summary.failed.length === 0 ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
