// The photo store kept clean (issue 38): what a refused upload stored goes once the sweep runs, temporary files a
// crash left go at start (all) and with the sweep (those older than the grace period), and the sweep removes only
// photos no record refers to (current or earlier revision) stored longer ago than the grace period, never an
// archive; one process sweeps at a time on PostgreSQL; the S3 store lists and removes the same way.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { PhotoSweeper, SWEEP_LOCK } from '../src/modules/registros/upload.ts';
import type { BlobCheck } from '../src/storage/blob-store.ts';
import { S3BlobStore, s3ClientConfig } from '../src/storage/s3-blob-store.ts';
import { unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const HOUR = 60 * 60 * 1000;
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
/** An archive's check that takes any bytes. */
const ANY_BYTES: BlobCheck<true> = { update: () => undefined, finish: () => true };

describe('The photo store kept clean', () => {
  let ctx: TestContext;
  /** The app as npm start builds it: photos no row refers to wait an hour for the sweep. */
  let graceApp: FastifyInstance;
  let projeto: string;
  let tecnico: string;

  /** The files of the store's hash folders and of its tmp/. */
  const photoFiles = () =>
    fs
      .readdirSync(ctx.blobDir)
      .filter((name) => /^[0-9a-f]{2}$/.test(name))
      .flatMap((folder) => fs.readdirSync(path.join(ctx.blobDir, folder)));
  const tmpFiles = () => fs.readdirSync(path.join(ctx.blobDir, 'tmp'));
  const fileOf = (hash: string) => path.join(ctx.blobDir, hash.slice(0, 2), hash);
  /** Sets a file's time two hours back, as if it had been stored then. */
  const age = (file: string) => {
    const then = new Date(Date.now() - 2 * HOUR);
    fs.utimesSync(file, then, then);
  };
  const held = (hash: string) => fs.existsSync(fileOf(hash));
  /** A sweep as the server's, with an hour's grace. */
  const sweep = (clock?: () => number) =>
    new PhotoSweeper(ctx.db, ctx.blobs, { graceMs: HOUR, ...(clock ? { clock } : {}) }).sweep();
  const twoHoursLater = () => Date.now() + 2 * HOUR;

  beforeAll(async () => {
    ctx = await createTestContext();
    graceApp = await buildApp({ db: ctx.db, tokens: ctx.tokens, blobs: ctx.blobs, photoGraceMs: HOUR });
    await graceApp.ready();
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Varredura', fluxos: ['hc'] });
    projeto = campo.projeto;
    tecnico = campo.tecnicoCookie;
  });
  afterAll(async () => {
    await graceApp.close();
    await ctx.close();
  });

  it('leaves nothing of an upload refused after its photo was stored, once the sweep runs', async () => {
    const photo = fakeJpeg(4000);
    const refused = await uploadRecord(
      graceApp,
      'unidade',
      unidadeForm(crypto.randomUUID(), projeto, { numero: '12a' }),
      { fotos: [photo], cookie: tecnico },
    );
    expect(refused.statusCode, refused.body).toBe(400);
    // The grace period protects it from this sweep (another process's request may be about to refer to it)…
    expect(held(sha256(photo))).toBe(true);
    await sweep();
    expect(held(sha256(photo))).toBe(true);
    // …and not from the one that finds it older than that.
    await sweep(twoHoursLater);
    expect(held(sha256(photo))).toBe(false);
    expect(tmpFiles()).toEqual([]);

    // Without a grace period (one process) it goes as the request ends.
    const alone = fakeJpeg(4001);
    const response = await uploadRecord(
      ctx.app,
      'unidade',
      unidadeForm(crypto.randomUUID(), projeto, { numero: '12a' }),
      { fotos: [alone], cookie: tecnico },
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(held(sha256(alone))).toBe(false);
  });

  it('removes the photos of a replay the stored record does not refer to, and keeps the record’s', async () => {
    const id = crypto.randomUUID();
    const [first, other] = [fakeJpeg(4002), fakeJpeg(4003)];
    const created = await uploadRecord(graceApp, 'unidade', unidadeForm(id, projeto), {
      fotos: [first],
      cookie: tecnico,
    });
    expect(created.statusCode, created.body).toBe(201);
    // The same record again with its photo compressed anew (other bytes): answered with the stored record.
    const replay = await uploadRecord(graceApp, 'unidade', unidadeForm(id, projeto), {
      fotos: [other],
      cookie: tecnico,
    });
    expect(replay.statusCode, replay.body).toBe(200);
    expect(held(sha256(other))).toBe(true);

    await sweep(twoHoursLater);
    expect(held(sha256(other))).toBe(false);
    expect(held(sha256(first))).toBe(true);
  });

  it('removes tmp/ whole at start and, with the sweep, what in it is older than the grace period', async () => {
    const tmp = path.join(ctx.blobDir, 'tmp');
    fs.writeFileSync(path.join(tmp, 'cortado-agora'), 'an upload in flight on another process');
    fs.writeFileSync(path.join(tmp, 'cortado-antes'), 'an upload a crash cut off');
    age(path.join(tmp, 'cortado-antes'));

    const report = await sweep();
    expect(report?.tmp).toBe(1);
    expect(tmpFiles()).toEqual(['cortado-agora']);
    // At start, in the only process on the store (main.ts, before a cluster forks).
    expect(await ctx.blobs.removeTmp()).toBe(1);
    expect(tmpFiles()).toEqual([]);
  });

  it('keeps a recent orphan, a photo a record refers to and an earlier revision’s; removes an old orphan', async () => {
    const id = crypto.randomUUID();
    const [referenced, revised, old, recent] = [
      fakeJpeg(4004),
      fakeJpeg(4005),
      fakeJpeg(4006),
      fakeJpeg(4007),
    ];
    const created = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos: [referenced],
      cookie: tecnico,
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const photo of [revised, old, recent]) await ctx.blobs.putImage(Readable.from([photo]));
    // An earlier revision of the record (issue 24) refers to `revised` only through registro_versoes.
    await ctx.db.query(
      `INSERT INTO registro_versoes (registro, versao, dados, flags, fotos) VALUES ($1, 0, '{}', '{}', $2::jsonb)`,
      [
        id,
        JSON.stringify([{ slot: 0, hash: sha256(revised), size: revised.length, mediaType: 'image/jpeg' }]),
      ],
    );
    const archive = await ctx.blobs.putArchive(Readable.from([crypto.randomBytes(5000)]), ANY_BYTES);
    for (const photo of [referenced, revised, old]) age(fileOf(sha256(photo)));
    age(path.join(ctx.blobDir, 'mapas', archive.hash.slice(0, 2), archive.hash));

    const report = await sweep();
    expect(report).toMatchObject({ removed: 1, removedBytes: old.length, failed: 0 });
    expect(held(sha256(old))).toBe(false);
    expect(held(sha256(recent))).toBe(true);
    expect(held(sha256(referenced))).toBe(true);
    expect(held(sha256(revised))).toBe(true);
    expect(await ctx.blobs.hasArchive(archive.hash)).toBe(true);
    expect(photoFiles()).not.toContain(sha256(old));
  });

  it('sweeps once the server listens', async () => {
    const orphan = fakeJpeg(4008);
    await ctx.blobs.putImage(Readable.from([orphan]));
    age(fileOf(sha256(orphan)));
    const lines: string[] = [];
    const server = await buildApp({
      db: ctx.db,
      tokens: ctx.tokens,
      blobs: ctx.blobs,
      photoGraceMs: HOUR,
      logger: { stream: { write: (line) => lines.push(line) } },
    });
    try {
      await server.listen({ port: 0, host: '127.0.0.1' });
      await expect
        .poll(() => lines.some((line) => line.includes('photo store swept')), { timeout: 10_000 })
        .toBe(true);
    } finally {
      await server.close();
    }
    const swept = lines.find((line) => line.includes('photo store swept')) ?? '';
    expect(JSON.parse(swept)).toMatchObject({ sweep: { removed: expect.any(Number) } });
    expect(held(sha256(orphan))).toBe(false);
  });

  it.runIf(process.env.NOVUS_TEST_DB === 'postgres')(
    'sweeps in one process at a time: another skips while the lock is held',
    async () => {
      const sweeper = new PhotoSweeper(ctx.db, ctx.blobs, { graceMs: HOUR });
      await ctx.db.transaction(async (tx) => {
        // Another server sweeping the same installation (this test file's schema).
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [SWEEP_LOCK]);
        expect(await sweeper.sweep()).toBeUndefined();
      });
      expect(await sweeper.sweep()).toMatchObject({ failed: 0 });
    },
  );
});

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

describe('The S3 photo store swept', () => {
  const BUCKET = 'novus-varredura';
  let s3rverDir: string;
  let s3rver: S3rverInstance;
  let client: S3Client;
  let store: S3BlobStore;
  let tmpDir: string;
  let ctx: TestContext;

  beforeAll(async () => {
    s3rverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-s3rver-'));
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-s3-tmp-'));
    s3rver = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3rverDir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3rver.run();
    client = new S3Client(
      s3ClientConfig({
        AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    );
    // s3rver signs a bucket's URL without the slash the SDK sends after it (`/bucket/?list-type=2`), and then
    // refuses the SDK's signature of a listing: sent as s3rver expects it (S3 itself takes either).
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string };
        if (request.path && /^\/[^/]+\/$/.test(request.path)) request.path = request.path.slice(0, -1);
        return next(args);
      },
      { step: 'build' },
    );
    store = new S3BlobStore(client, { bucket: BUCKET, prefix: 'fotos/' }, tmpDir);
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
    client.destroy();
    await s3rver.close();
    fs.rmSync(s3rverDir, { recursive: true, force: true });
    fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  it('lists the photo keys with their time, and none of the archives’ or foreign keys', async () => {
    const photos = [fakeJpeg(5000), fakeJpeg(5001), fakeJpeg(5002)];
    for (const photo of photos) await store.putImage(Readable.from([photo]));
    await store.putArchive(Readable.from([crypto.randomBytes(3000)]), ANY_BYTES);
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'fotos/leia-me.txt', Body: 'not a photo' }),
    );
    const listed = [];
    for await (const batch of store.listPhotos()) listed.push(...batch);
    expect(listed.map((photo) => photo.hash).sort()).toEqual(photos.map(sha256).sort());
    for (const photo of listed) {
      expect(Math.abs(photo.modifiedAt - Date.now())).toBeLessThan(60_000);
      expect(photo.size).toBe(photos.find((bytes) => sha256(bytes) === photo.hash)?.length);
    }

    const [first] = photos.map(sha256);
    if (!first) throw new Error('no photo');
    expect(await store.removeIfOlder(first, Date.now() - HOUR)).toBe(false);
    expect(await store.has(first)).toBe(true);
    expect(await store.removeIfOlder(first, Date.now() + HOUR)).toBe(true);
    expect(await store.has(first)).toBe(false);
  });

  it('asks for the next page with the token of the last one', async () => {
    // s3rver cannot make continuation tokens on OpenSSL 3 (its cipher is gone): pages answered here instead.
    const hashes = [fakeJpeg(5010), fakeJpeg(5011), fakeJpeg(5012)].map(sha256);
    const object = (hash: string) => ({
      Key: `fotos/${hash.slice(0, 2)}/${hash}`,
      LastModified: new Date(0),
      Size: 7,
    });
    const asked: { MaxKeys?: number; ContinuationToken?: string; Prefix?: string }[] = [];
    const pages = [
      {
        Contents: [object(hashes[0] ?? ''), { Key: 'fotos/mapas/ab/x' }],
        IsTruncated: true,
        NextContinuationToken: 't1',
      },
      { Contents: [object(hashes[1] ?? ''), object(hashes[2] ?? '')], IsTruncated: false },
    ];
    const paged = new S3BlobStore(
      {
        send: async (command: ListObjectsV2Command) => {
          asked.push(command.input);
          return pages[asked.length - 1];
        },
      } as unknown as S3Client, // only send() is called, with listings only
      { bucket: BUCKET, prefix: 'fotos/' },
      tmpDir,
    );
    paged.listPageSize = 2;
    const batches = [];
    for await (const batch of paged.listPhotos()) batches.push(batch.map((photo) => photo.hash));
    expect(batches).toEqual([[hashes[0]], [hashes[1], hashes[2]]]);
    expect(asked).toMatchObject([
      { Bucket: BUCKET, Prefix: 'fotos/', MaxKeys: 2 },
      { Bucket: BUCKET, Prefix: 'fotos/', MaxKeys: 2, ContinuationToken: 't1' },
    ]);
  });

  it('removes an orphan older than the grace period and keeps what a record refers to', async () => {
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Varredura S3', fluxos: ['hc'] });
    const referenced = fakeJpeg(5003);
    const created = await uploadRecord(ctx.app, 'unidade', unidadeForm(crypto.randomUUID(), campo.projeto), {
      fotos: [referenced],
      cookie: campo.tecnicoCookie,
    });
    expect(created.statusCode, created.body).toBe(201);
    const orphan = fakeJpeg(5004);
    // The record's photo in the bucket as well, so the bucket holds one referenced photo and one orphan.
    for (const photo of [referenced, orphan]) await store.putImage(Readable.from([photo]));
    fs.writeFileSync(path.join(tmpDir, 'cortado'), 'a copy on its way to the bucket when a crash came');

    const report = await new PhotoSweeper(ctx.db, store, {
      graceMs: HOUR,
      clock: () => Date.now() + 2 * HOUR,
    }).sweep();
    expect(report).toMatchObject({ failed: 0, tmp: 1 });
    expect(await store.has(sha256(orphan))).toBe(false);
    expect(await store.has(sha256(referenced))).toBe(true);
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });
});
