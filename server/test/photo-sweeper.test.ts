// Photos no row refers to, removed after the request that stored them (PhotoSweeper): at once in one process; with
// a delay where other processes share the photo store (main.ts), and then only if nobody stored them again since.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoSweeper } from '../src/modules/registros/upload.ts';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import { fakeJpeg } from './support/multipart.ts';
import { createTestContext, type TestContext } from './support/test-app.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  /** One request storing the photo and ending without a row referring to it. */
  async function failedRequest(sweeper: PhotoSweeper, photo: Buffer): Promise<string> {
    const request = sweeper.request();
    const { hash } = await blobs.putImage(Readable.from([photo]));
    request.stored(hash);
    await request.sweep();
    return hash;
  }

  it('removes an unreferenced photo at once without a delay', async () => {
    const hash = await failedRequest(new PhotoSweeper(ctx.db, blobs), fakeJpeg(3000));
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
  });

  it('with a delay, removes it once the delay has passed', async () => {
    const sweeper = new PhotoSweeper(ctx.db, blobs, { delayMs: 150 });
    const hash = await failedRequest(sweeper, fakeJpeg(3001));
    expect(await blobs.modifiedAt(hash)).toBeDefined();
    await wait(400);
    expect(await blobs.modifiedAt(hash)).toBeUndefined();
  });

  it('with a delay, leaves a photo another process stored again after the request ended', async () => {
    const sweeper = new PhotoSweeper(ctx.db, blobs, { delayMs: 150 });
    const photo = fakeJpeg(3002);
    const hash = await failedRequest(sweeper, photo);
    await wait(20);
    // Another worker's upload of the same photo, still in flight when the delay ends.
    await blobs.putImage(Readable.from([photo]));
    await wait(400);
    expect(await blobs.modifiedAt(hash)).toBeDefined();
  });

  it('drops the removals waiting when it closes', async () => {
    const sweeper = new PhotoSweeper(ctx.db, blobs, { delayMs: 100 });
    const hash = await failedRequest(sweeper, fakeJpeg(3003));
    sweeper.close();
    await wait(300);
    expect(await blobs.modifiedAt(hash)).toBeDefined();
  });
});
