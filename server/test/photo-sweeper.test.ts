// Photos no row refers to (PhotoSweeper): removed as their request ends in one process (no grace period); with a
// grace period left for the sweep, which removes them once stored longer ago than it, never while a request of this
// process holds them, and keeps sweeping at start and then periodically until it is closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoSweeper, type SweepReport } from '../src/modules/registros/upload.ts';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import { fakeJpeg } from './support/multipart.ts';
import { createTestContext, type TestContext } from './support/test-app.ts';

const HOUR = 60 * 60 * 1000;
/** Two hours from now: every photo stored so far is older than an hour's grace. */
const later = () => Date.now() + 2 * HOUR;

describe('PhotoSweeper', () => {
  let ctx: TestContext;
  let dir: string;
  let blobs: LocalBlobStore;

  beforeAll(async () => {
    ctx = await createTestContext();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-sweeper-'));
    blobs = new LocalBlobStore(dir);
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One request storing the photo and ending without a row referring to it; the request's photos. */
  async function failedRequest(sweeper: PhotoSweeper, photo: Buffer): Promise<string> {
    const request = sweeper.request();
    const { hash } = await blobs.putImage(Readable.from([photo]));
    request.stored(hash);
    await request.sweep();
    return hash;
  }

  it('removes an unreferenced photo as its request ends without a grace period', async () => {
    const hash = await failedRequest(new PhotoSweeper(ctx.db, blobs), fakeJpeg(3000));
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
  });

  it('with a grace period, leaves it to the sweep, which removes it once older than the grace', async () => {
    const hash = await failedRequest(new PhotoSweeper(ctx.db, blobs, { graceMs: HOUR }), fakeJpeg(3001));
    expect(await blobs.modifiedAt(hash)).toBeDefined();

    await new PhotoSweeper(ctx.db, blobs, { graceMs: HOUR }).sweep();
    expect(await blobs.modifiedAt(hash)).toBeDefined();

    const report = await new PhotoSweeper(ctx.db, blobs, { graceMs: HOUR, clock: later }).sweep();
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
    expect(report).toMatchObject({ removed: 1, failed: 0 });
  });

  it('never removes a photo a request of this process holds, however old', async () => {
    const sweeper = new PhotoSweeper(ctx.db, blobs, { graceMs: HOUR, clock: later });
    const request = sweeper.request();
    const { hash } = await blobs.putImage(Readable.from([fakeJpeg(3002)]));
    request.stored(hash);
    await sweeper.sweep();
    expect(await blobs.modifiedAt(hash)).toBeDefined();

    await request.sweep();
    await sweeper.sweep();
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
  });

  it('keeps a photo stored again after the sweep listed it (its name renamed onto by another request)', async () => {
    const photo = fakeJpeg(3003);
    const { hash } = await blobs.putImage(Readable.from([photo]));
    const listedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another process's upload of the same photo, landing between the listing and the removal.
    await blobs.putImage(Readable.from([photo]));
    expect(await blobs.removeIfOlder(hash, listedAt)).toBe(false);
    expect(await blobs.modifiedAt(hash)).toBeDefined();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);

    expect(await blobs.removeIfOlder(hash, Date.now() + 1000)).toBe(true);
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('sweeps at start and every period once started, and stops when closed', async () => {
    /** A photo stored two hours ago, as the file's time says (the sweep's clock stays the real one here). */
    const storedLongAgo = async (seed: number) => {
      const { hash } = await blobs.putImage(Readable.from([fakeJpeg(seed)]));
      const then = new Date(Date.now() - 2 * HOUR);
      fs.utimesSync(path.join(dir, hash.slice(0, 2), hash), then, then);
      return hash;
    };
    const swept: SweepReport[] = [];
    const errors: unknown[] = [];
    const sweeper = new PhotoSweeper(ctx.db, blobs, {
      graceMs: HOUR,
      periodMs: 50,
      onSwept: (report) => swept.push(report),
      onError: (error) => errors.push(error),
    });
    const first = await storedLongAgo(3004);
    const young = (await blobs.putImage(Readable.from([fakeJpeg(3005)]))).hash;
    sweeper.start();
    await expect.poll(() => swept.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(await blobs.modifiedAt(first)).toBeUndefined();

    const next = await storedLongAgo(3006);
    await expect.poll(() => blobs.modifiedAt(next), { timeout: 10_000 }).toBeUndefined();
    await sweeper.close();
    const count = swept.length;
    const after = await storedLongAgo(3007);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(swept.length).toBe(count);
    expect(await blobs.modifiedAt(after)).toBeDefined();
    expect(await blobs.modifiedAt(young)).toBeDefined();
    expect(errors).toEqual([]);
  });

  it('does not start by itself without a grace period', async () => {
    const swept: SweepReport[] = [];
    const sweeper = new PhotoSweeper(ctx.db, blobs, {
      periodMs: 10,
      onSwept: (report) => swept.push(report),
    });
    sweeper.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sweeper.close();
    expect(swept).toEqual([]);
  });
});
