// Photos in S3-compatible object storage (issue 13): the S3BlobStore against a real S3-protocol server (s3rver,
// started here on a free port), through the real upload and photo routes, and `npm run photos:migrate` copying a
// local photo folder into it.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import { migratePhotos } from '../src/scripts/photos-migrate.ts';
import {
  PHOTO_STORE_UNAVAILABLE,
  parseS3Url,
  S3BlobStore,
  s3ClientConfig,
} from '../src/storage/s3-blob-store.ts';
import { unidadeForm } from './support/fixtures.ts';
import { CURITIBA_BBOX, tilesOverBbox, writePmtiles } from './support/pmtiles.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const BUCKET = 'novus-fotos';
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const root = path.resolve(import.meta.dirname, '../..');

/** A port nothing listens on (taken from the system, then released). */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const s3Env = (port: number) => ({
  AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
});

describe('S3 photo store', () => {
  let s3rverDir: string;
  let s3rver: S3rverInstance;
  let port: number;
  let client: S3Client;
  let store: S3BlobStore;
  let ctx: TestContext<S3BlobStore>;
  let projeto: string;
  let tecnico: string;
  let admin: string;
  /** The record of the first upload and its photos. */
  const first = { id: crypto.randomUUID(), fotos: [fakeJpeg(), fakeJpeg(5 * 1024 * 1024)] };

  const startS3rver = async () => {
    s3rver = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory: s3rverDir,
      configureBuckets: [{ name: BUCKET }],
    });
    port = (await s3rver.run()).port;
  };
  /**
   * The keys the bucket holds under prefix, read from s3rver's folder (it keeps each object as
   * `{bucket}/{key}._S3rver_object`): its check of the SDK's signature for ListObjects fails.
   */
  const keys = async (prefix: string) => {
    const bucket = path.join(s3rverDir, BUCKET);
    const suffix = '._S3rver_object';
    const files = await fs.promises.readdir(path.join(bucket, prefix), { recursive: true }).catch(() => []);
    return files
      .filter((file) => file.endsWith(suffix))
      .map((file) => `${prefix}${file.slice(0, -suffix.length)}`)
      .sort();
  };
  const count = async (sql: string, params: unknown[]) =>
    Number((await ctx.db.query<{ n: number | string }>(sql, params))[0]?.n ?? -1);
  const photo = (registro: string, slot: number) =>
    ctx.app.inject({ method: 'GET', url: `/api/fotos/${registro}/${slot}`, headers: { cookie: tecnico } });

  beforeAll(async () => {
    s3rverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-s3rver-'));
    port = 0;
    await startS3rver();
    client = new S3Client(s3ClientConfig(s3Env(port)));
    store = new S3BlobStore(client, { bucket: BUCKET, prefix: 'fotos/' });
    ctx = await createTestContext({ blobs: store });
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Objetos', fluxos: ['hc'] });
    ({ admin, projeto, tecnicoCookie: tecnico } = campo);
  });
  afterAll(async () => {
    await ctx.close();
    client.destroy();
    await s3rver.close();
    fs.rmSync(s3rverDir, { recursive: true, force: true });
  });

  it('reads PHOTO_STORE as s3://bucket/prefix', () => {
    expect(parseS3Url('s3://novus-fotos/producao/fotos/')).toEqual({
      bucket: 'novus-fotos',
      prefix: 'producao/fotos/',
    });
    expect(parseS3Url('s3://novus-fotos')).toEqual({ bucket: 'novus-fotos', prefix: '' });
    expect(parseS3Url('/var/novus/fotos')).toBeUndefined();
    expect(s3ClientConfig(s3Env(9000))).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
    expect(s3ClientConfig({ AWS_REGION: 'sa-east-1' })).not.toHaveProperty('endpoint');
  });

  it('stores the photos of an upload under their SHA-256, once for a replay, and serves them byte for byte', async () => {
    // A photo of several MB goes through in many chunks both ways.
    const { id, fotos } = first;
    const created = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos,
      cookie: tecnico,
    });
    expect(created.statusCode, created.body).toBe(201);
    const expected = fotos.map((bytes) => store.keyOf(sha256(bytes))).sort();
    expect(expected[0]).toMatch(/^fotos\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    expect(await keys('fotos/')).toEqual(expected);
    const written = () =>
      expected.map((key) => fs.statSync(path.join(s3rverDir, BUCKET, `${key}._S3rver_object`)).mtimeMs);
    const firstWritten = written();

    // The device sends the same record and photos again (its answer was lost): stored once.
    const replay = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos,
      cookie: tecnico,
    });
    expect(replay.statusCode, replay.body).toBe(200);
    // The same photo in another record: one object for both.
    const other = await uploadRecord(ctx.app, 'unidade', unidadeForm(crypto.randomUUID(), projeto), {
      fotos: [fotos[0] ?? Buffer.alloc(0)],
      cookie: tecnico,
    });
    expect(other.statusCode, other.body).toBe(201);
    expect(await keys('fotos/')).toEqual(expected);
    // Not even sent again: the objects were written once.
    expect(written()).toEqual(firstWritten);
    expect(await count('SELECT count(*) AS n FROM fotos WHERE registro = $1', [id])).toBe(2);

    for (const [slot, bytes] of fotos.entries()) {
      const response = await photo(id, slot);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
      expect(sha256(response.rawPayload)).toBe(sha256(bytes));
      expect(response.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it("streams the bucket's objects into the Extrator's photo zip", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/extrator/${projeto}/fotos.zip`,
      headers: { cookie: admin },
    });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    const zip = unzipSync(new Uint8Array(response.rawPayload));
    for (const [slot, bytes] of first.fotos.entries()) {
      const entry = zip[`Unidade/${first.id}/${slot + 1}.jpg`];
      expect(entry && Buffer.from(entry).equals(bytes)).toBe(true);
    }
  });

  it('tells the device which photos the bucket holds (resumable sync)', async () => {
    const held = fakeJpeg();
    const upload = await uploadRecord(ctx.app, 'unidade', unidadeForm(crypto.randomUUID(), projeto), {
      fotos: [held],
      cookie: tecnico,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const missing = sha256(fakeJpeg());
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/fotos/existem',
      headers: { cookie: tecnico },
      payload: { hashes: [sha256(held), missing] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ existem: [sha256(held)] });
  });

  it('answers 404 in Portuguese for a photo whose object is gone from the bucket', async () => {
    const bytes = fakeJpeg();
    const id = crypto.randomUUID();
    const upload = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos: [bytes],
      cookie: tecnico,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    expect((await photo(id, 0)).statusCode).toBe(200);
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: store.keyOf(sha256(bytes)) }));
    const response = await photo(id, 0);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Foto não encontrada.' });
  });

  it('refuses an upload with a 503 in Portuguese while the store is down, leaving nothing in the database', async () => {
    const fotos = [fakeJpeg(), fakeJpeg()];
    const id = crypto.randomUUID();
    const records = () => count('SELECT count(*) AS n FROM registros WHERE id = $1', [id]);
    const rows = () => count('SELECT count(*) AS n FROM fotos WHERE registro = $1', [id]);

    // A wrong endpoint: nothing listens there.
    const lost = new S3BlobStore(new S3Client(s3ClientConfig(s3Env(await deadPort()))), {
      bucket: BUCKET,
      prefix: 'fotos/',
    });
    await expect(lost.check()).rejects.toMatchObject({ status: 503 });
    await expect(store.check()).resolves.toBeUndefined();
    await expect(lost.putImage(Readable.from([fotos[0] ?? Buffer.alloc(0)]))).rejects.toMatchObject({
      status: 503,
      message: PHOTO_STORE_UNAVAILABLE,
    });

    const kept = crypto.randomUUID();
    const before = await uploadRecord(ctx.app, 'unidade', unidadeForm(kept, projeto), {
      fotos: [fakeJpeg()],
      cookie: tecnico,
    });
    expect(before.statusCode, before.body).toBe(201);

    // The store stops while the server runs.
    await s3rver.close();
    try {
      const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
        fotos,
        cookie: tecnico,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ message: PHOTO_STORE_UNAVAILABLE });
      expect(await records()).toBe(0);
      expect(await rows()).toBe(0);
      await expect(store.check()).rejects.toMatchObject({ status: 503 });
      const reading = await photo(kept, 0);
      expect(reading.statusCode).toBe(503);
      expect(reading.json()).toEqual({ message: PHOTO_STORE_UNAVAILABLE });
    } finally {
      await startS3rver();
    }

    // Back up: the device's retry stores the record and its photos whole.
    const retry = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos,
      cookie: tecnico,
    });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await records()).toBe(1);
    expect(await rows()).toBe(2);
    expect(sha256((await photo(id, 1)).rawPayload)).toBe(sha256(fotos[1] ?? Buffer.alloc(0)));
  });

  it('stores a basemap archive by multipart upload under mapas/ and serves its tiles by ranges from the bucket', async () => {
    // Tiles of random bytes (they do not compress): an archive of about 6 MB, two parts of 5 MiB at most.
    const tiles = tilesOverBbox(CURITIBA_BBOX, [16], () => crypto.randomBytes(96 * 1024));
    const archive = Buffer.from(writePmtiles({ tiles, tileType: 'webp', bounds: CURITIBA_BBOX }));
    expect(archive.length).toBeGreaterThan(5 * 1024 * 1024);
    store.archivePartSize = 5 * 1024 * 1024;
    const send = vi.spyOn(client, 'send');
    try {
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/projeto/${projeto}/mapa-base?nome=ortofoto.pmtiles`,
        headers: { cookie: admin, 'content-type': 'application/vnd.pmtiles' },
        payload: Readable.from([archive.subarray(0, 1_000_000), archive.subarray(1_000_000)]),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ tipo: 'webp', blocos: tiles.length, tamanho: archive.length });
      const commands = send.mock.calls.map(([command]) => command.constructor.name);
      expect(commands).toContain('CreateMultipartUploadCommand');
      expect(commands.filter((name) => name === 'UploadPartCommand')).toHaveLength(2);
      expect(commands).toContain('CompleteMultipartUploadCommand');
    } finally {
      send.mockRestore();
    }
    const key = store.archiveKeyOf(sha256(archive));
    expect(key).toMatch(/^fotos\/mapas\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    expect(await keys('fotos/mapas/')).toEqual([key]);

    // Tiles read by ranges (GetObject with Range), byte for byte.
    const ranged = vi.spyOn(client, 'send');
    try {
      for (const tile of [tiles[0], tiles[tiles.length - 1]]) {
        if (!tile) throw new Error('no tile');
        const served = await ctx.app.inject({
          method: 'GET',
          url: `/api/projeto/${projeto}/mapa-base/${tile.z}/${tile.x}/${tile.y}`,
          headers: { cookie: tecnico },
        });
        expect(served.statusCode).toBe(200);
        expect(served.rawPayload.equals(Buffer.from(tile.data))).toBe(true);
      }
      const ranges = ranged.mock.calls.map(([command]) => (command.input as { Range?: string }).Range);
      expect(ranges.length).toBeGreaterThan(0);
      expect(ranges.every((range) => /^bytes=\d+-\d+$/.test(range ?? ''))).toBe(true);
    } finally {
      ranged.mockRestore();
    }

    // Removed with the package.
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${projeto}/mapa-base`,
      headers: { cookie: admin },
    });
    expect(removed.statusCode).toBe(204);
    expect(await keys('fotos/mapas/')).toEqual([]);
  });

  describe('photos:migrate', () => {
    let folder: string;
    let local: LocalBlobStore;
    const photos = [fakeJpeg(), fakeJpeg(300 * 1024), fakeJpeg(2 * 1024 * 1024)];
    const hashes = photos.map(sha256);
    const target = () => new S3BlobStore(client, { bucket: BUCKET, prefix: 'migrada/' });

    beforeAll(async () => {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-migrar-'));
      local = new LocalBlobStore(folder);
      for (const bytes of photos) await local.putImage(Readable.from([bytes]));
    });
    afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

    it('copies the local folder verifying each photo, and a second run skips what is there', async () => {
      const lines: string[] = [];
      const first = await migratePhotos(folder, target(), { log: (line) => lines.push(line), every: 1 });
      expect(first).toEqual({ total: 3, copied: 3, skipped: 0, failed: [] });
      expect(await keys('migrada/')).toEqual(
        hashes.map((hash) => `migrada/${hash.slice(0, 2)}/${hash}`).sort(),
      );
      for (const [i, hash] of hashes.entries()) {
        const stream = await target().open(hash);
        expect(stream).toBeDefined();
        const chunks: Buffer[] = [];
        for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(photos[i] ?? Buffer.alloc(0))).toBe(true);
      }
      expect(lines).toContain('3/3 (3 copiada(s), 0 já no destino)');
      expect(lines.at(-1)).toBe(
        'Resumo: 3 foto(s); 3 copiada(s) e verificada(s); 0 já no destino; 0 falha(s).',
      );

      const again = await migratePhotos(folder, target(), { verifyExisting: true });
      expect(again).toEqual({ total: 3, copied: 0, skipped: 3, failed: [] });
    });

    it('resumes after a cut, replaces a wrong object and reports a local file that does not match its name', async () => {
      const [, b, c] = hashes as [string, string, string];
      // As if a run had been cut after the first photo, with a damaged object left under the third's key.
      await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `migrada/${b.slice(0, 2)}/${b}` }));
      await client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `migrada/${c.slice(0, 2)}/${c}`, Body: 'estragado' }),
      );
      const resumed = await migratePhotos(folder, target());
      expect(resumed).toEqual({ total: 3, copied: 2, skipped: 1, failed: [] });
      expect(await target().sizeOf(c)).toBe(photos[2]?.length);

      // A local file whose bytes changed on disk is not copied under its name.
      const bad = fakeJpeg();
      const badHash = sha256(fakeJpeg());
      fs.mkdirSync(path.join(folder, badHash.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(folder, badHash.slice(0, 2), badHash), bad);
      const checked = await migratePhotos(folder, target());
      expect(checked.total).toBe(4);
      expect(checked.skipped).toBe(3);
      expect(checked.failed).toEqual([
        { hash: badHash, reason: `o arquivo local não corresponde ao seu hash (${sha256(bad)})` },
      ]);
      expect(await target().has(badHash)).toBe(false);
      fs.rmSync(path.join(folder, badHash.slice(0, 2), badHash));
    });

    it('runs as npm run photos:migrate with PHOTO_STORE and the AWS_* variables', async () => {
      const { stdout } = await promisify(execFile)(
        'npm',
        ['run', '--silent', 'photos:migrate', '--', '--de', folder, '--verificar-existentes'],
        { cwd: root, env: { ...process.env, ...s3Env(port), PHOTO_STORE: `s3://${BUCKET}/migrada` } },
      );
      expect(stdout).toContain(`3 foto(s) em ${folder} → s3://${BUCKET}/migrada/`);
      expect(stdout).toContain(
        'Resumo: 3 foto(s); 0 copiada(s) e verificada(s); 3 já no destino; 0 falha(s).',
      );

      const failing = await promisify(execFile)(
        'npm',
        ['run', '--silent', 'photos:migrate', '--', '--de', folder],
        {
          cwd: root,
          env: { ...process.env, ...s3Env(await deadPort()), PHOTO_STORE: `s3://${BUCKET}/migrada` },
        },
      ).catch((error: unknown) => error as { code: number; stdout: string });
      expect(failing).toMatchObject({ code: 1 });
      expect((failing as { stdout: string }).stdout).toContain('3 falha(s)');
    });
  });
});
