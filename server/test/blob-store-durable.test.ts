// The local photo store's promise (DESIGN.md 'Durability contract'): a photo's file is synced before it is renamed
// onto its hash, its folder synced after, and both before the record's transaction commits; a failed sync or a full
// disk fails the upload with a Portuguese 503/507, acknowledges nothing and leaves no file behind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import {
  FolderSyncs,
  nodeFileSystem,
  type StoreFile,
  type StoreFileSystem,
} from '../src/storage/durable-files.ts';
import { unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

type Call =
  | { op: 'open'; file: string; flags: 'w' | 'r' }
  | { op: 'sync' | 'close'; file: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'mkdir' | 'rm'; file: string };

/** Node's file system, each call written down; `fail` makes a call of one kind throw an errno error instead. */
class RecordingFileSystem implements StoreFileSystem {
  readonly calls: Call[] = [];
  fail: { op: 'sync' | 'write'; code: string; on?: 'file' | 'folder' } | undefined;
  /** Called as each sync starts (the test looks at the database then). */
  onSync: ((file: string) => Promise<void>) | undefined;

  async open(file: string, flags: 'w' | 'r'): Promise<StoreFile> {
    this.calls.push({ op: 'open', file, flags });
    const handle = await nodeFileSystem.open(file, flags);
    const failing = (op: 'sync' | 'write') => {
      const fail = this.fail;
      if (!fail || fail.op !== op) return undefined;
      if (fail.on && fail.on !== (flags === 'r' ? 'folder' : 'file')) return undefined;
      return Object.assign(new Error(`${fail.code}: fake`), { code: fail.code });
    };
    return {
      writev: async (buffers) => {
        const error = failing('write');
        if (error) throw error;
        return handle.writev(buffers);
      },
      write: (buffer) => handle.write(buffer),
      sync: async () => {
        this.calls.push({ op: 'sync', file });
        await this.onSync?.(file);
        const error = failing('sync');
        if (error) throw error;
        await handle.sync();
      },
      close: async () => {
        this.calls.push({ op: 'close', file });
        await handle.close();
      },
    };
  }
  async rename(from: string, to: string) {
    this.calls.push({ op: 'rename', from, to });
    await nodeFileSystem.rename(from, to);
  }
  async mkdir(folder: string) {
    this.calls.push({ op: 'mkdir', file: folder });
    await nodeFileSystem.mkdir(folder);
  }
  async rm(file: string) {
    this.calls.push({ op: 'rm', file });
    await nodeFileSystem.rm(file);
  }
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Every file under dir (the photo store's folders), relative. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('LocalBlobStore: the order of a photo on its way to stable storage', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-durable-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('syncs the file before the rename and its folder after it', async () => {
    const files = new RecordingFileSystem();
    const store = new LocalBlobStore(path.join(dir, 'ordem'), files);
    const photo = fakeJpeg(4000);
    const { hash } = await store.putImage(Readable.from([photo]));
    const target = path.join(dir, 'ordem', hash.slice(0, 2), hash);

    const rename = files.calls.findIndex((call) => call.op === 'rename');
    const renamed = files.calls[rename];
    if (renamed?.op !== 'rename') throw new Error('no rename');
    expect(renamed.to).toBe(target);
    const tmp = renamed.from;
    expect(path.dirname(tmp)).toBe(path.join(dir, 'ordem', 'tmp'));
    const index = (predicate: (call: Call) => boolean) => files.calls.findIndex(predicate);
    const fileSync = index((call) => call.op === 'sync' && call.file === tmp);
    const fileClose = index((call) => call.op === 'close' && call.file === tmp);
    const folderSync = files.calls.findLastIndex(
      (call) => call.op === 'sync' && call.file === path.dirname(target),
    );
    expect(fileSync).toBeGreaterThanOrEqual(0);
    expect(fileSync).toBeLessThan(fileClose);
    expect(fileClose).toBeLessThan(rename);
    expect(folderSync).toBeGreaterThan(rename);
    // The new hash folder's own entry was synced into the store's root before the rename into it.
    const made = index((call) => call.op === 'mkdir' && call.file === path.dirname(target));
    const rootSync = index((call) => call.op === 'sync' && call.file === path.join(dir, 'ordem'));
    expect(made).toBeGreaterThanOrEqual(0);
    expect(rootSync).toBeGreaterThan(made);
    expect(rootSync).toBeLessThan(rename);
    expect(sha256(fs.readFileSync(target))).toBe(hash);
  });

  it.each([
    ['the file', 'file'],
    ['the folder', 'folder'],
  ] as const)('fails the store when the sync of %s fails', async (_, on) => {
    const files = new RecordingFileSystem();
    const root = path.join(dir, `falha-${on}`);
    const store = new LocalBlobStore(root, files);
    files.fail = { op: 'sync', code: 'EIO', on };
    await expect(store.putImage(Readable.from([fakeJpeg(4001)]))).rejects.toMatchObject({ code: 'EIO' });
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    // A failed file sync never named the photo; a failed folder sync left it for the sweep (not acknowledged).
    if (on === 'file') expect(filesUnder(root)).toEqual([]);
  });

  it('one folder sync serves the renames made while another ran', async () => {
    const files = new RecordingFileSystem();
    const syncs = new FolderSyncs(files);
    const folder = path.join(dir, 'grupo');
    fs.mkdirSync(folder);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    files.onSync = () => gate;
    const first = syncs.sync(folder);
    // Eight renames while the first sync is under way: they share the one after it.
    const waiting = Array.from({ length: 8 }, () => syncs.sync(folder));
    let settled = 0;
    for (const promise of waiting) void promise.then(() => (settled += 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(0);
    release();
    await first;
    await Promise.all(waiting);
    expect(files.calls.filter((call) => call.op === 'sync')).toHaveLength(2);
  });
});

describe('an upload is acknowledged only once its photos are durable', () => {
  let ctx: TestContext;
  let files: RecordingFileSystem;
  let root: string;
  let projeto: string;
  let cookie: string;

  beforeAll(async () => {
    files = new RecordingFileSystem();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-durable-app-'));
    ctx = await createTestContext({ blobs: new LocalBlobStore(root, files) });
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Duravel', fluxos: ['hc'] });
    projeto = campo.projeto;
    cookie = campo.tecnicoCookie;
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  const stored = async (id: string) =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM registros WHERE id = $1', [id]))[0]?.n;

  it('syncs the photo and its folder before the record is committed', async () => {
    const id = crypto.randomUUID();
    const seenAtSync: (number | undefined)[] = [];
    files.onSync = async () => {
      seenAtSync.push(await stored(id));
    };
    const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos: [fakeJpeg(4100), fakeJpeg(4101)],
      cookie,
    });
    files.onSync = undefined;
    expect(response.statusCode, response.body).toBe(201);
    // Two files and at least one folder synced, none with the record already there.
    expect(seenAtSync.length).toBeGreaterThanOrEqual(3);
    expect(seenAtSync.every((n) => n === 0)).toBe(true);
    expect(await stored(id)).toBe(1);
  });

  it.each([
    ['a full disk while writing answers 507', { op: 'write', code: 'ENOSPC' }, 507, 'Sem espaço no servidor'],
    ['an I/O error in the sync answers 503', { op: 'sync', code: 'EIO' }, 503, 'não conseguiu gravar'],
  ] as const)('%s in Portuguese, stores nothing', async (_, fail, status, message) => {
    const id = crypto.randomUUID();
    const photo = fakeJpeg(4200 + status);
    files.fail = fail;
    const response = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos: [photo],
      cookie,
    });
    files.fail = undefined;
    expect(response.statusCode, response.body).toBe(status);
    expect((response.json() as { message: string }).message).toContain(message);
    expect(await stored(id)).toBe(0);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(root, sha256(photo).slice(0, 2), sha256(photo)))).toBe(false);
    // The device's retry, once the disk is back, is stored.
    const retry = await uploadRecord(ctx.app, 'unidade', unidadeForm(id, projeto), {
      fotos: [photo],
      cookie,
    });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await stored(id)).toBe(1);
  });
});
