// The embedded database on disk keeps what it acknowledged (issue 38): PGlite's fsync reaches the host, a commit's
// WAL is synced before the commit returns (read off strace where it is installed), a SIGKILLed process's commits
// are all there at the next open, and a failed sync stops the process instead of acknowledging anything.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import {
  CREATING_MARKER,
  type EmscriptenFs,
  type EmscriptenNode,
  type HostSync,
  type Nodefs,
  openDurablePglite,
  patchNodefs,
} from '../src/db/pglite-durable.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DB_DIR = fileURLToPath(new URL('../src/db/', import.meta.url));
// Not only installed: allowed to trace (some containers forbid ptrace).
const STRACE = spawnSync('strace', ['-f', '-o', '/dev/null', 'true']).status === 0;
const PROC_FDS = fs.existsSync('/proc/self/fd');
const WAL_SEGMENT = /\/pg_wal\/[0-9A-F]{24}$/;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-durable-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const newDir = () => fs.mkdtempSync(path.join(scratch, 'db-'));

/** A host that syncs for real and remembers what it synced (by path, read from /proc where there is one). */
function countingHost(): HostSync & { synced: string[] } {
  const synced: string[] = [];
  return {
    synced,
    openSync: (file, flags) => fs.openSync(file, flags),
    closeSync: (fd) => fs.closeSync(fd),
    fsyncSync(fd) {
      synced.push(PROC_FDS ? fs.readlinkSync(`/proc/self/fd/${fd}`) : `fd ${fd}`);
      fs.fsyncSync(fd);
    },
  };
}

describe('NODEFS patched: fsync reaches the host, rename replaces atomically', () => {
  /** A tiny emscripten tree: `root` (a directory of the host) and whatever nodes a test adds under it. */
  function fakeTree(rootDir: string) {
    const nameTable: Array<EmscriptenNode | undefined> = new Array(8).fill(undefined);
    const root: EmscriptenNode = {
      name: '/',
      mode: 0o40755,
      id: 1,
      // The root is its own parent, as emscripten's is.
      get parent() {
        return root;
      },
    };
    const hashName = (parentId: number, name: string) => (parentId + name.length) % nameTable.length;
    const emscriptenFs: EmscriptenFs = {
      isFile: (mode) => (mode & 0o170000) === 0o100000,
      nameTable,
      hashName,
      hashRemoveNode(node) {
        const hash = hashName(node.parent.id, node.name);
        if (nameTable[hash] === node) nameTable[hash] = node.name_next;
        else {
          let current = nameTable[hash];
          while (current && current.name_next !== node) current = current.name_next;
          if (current) current.name_next = node.name_next;
        }
      },
    };
    const errors: unknown[] = [];
    const nodefs: Nodefs = {
      realPath: (node) => (node === root ? rootDir : path.join(rootDir, node.name)),
      tryFSOperation(operation) {
        try {
          return operation();
        } catch (error) {
          errors.push(error);
          throw new Error('ErrnoError 29');
        }
      },
      stream_ops: {},
      node_ops: { rename: () => expect.unreachable('the patched rename replaces this one') },
    };
    let ids = 1;
    const add = (name: string, mode: number): EmscriptenNode => {
      const node: EmscriptenNode = { name, mode, parent: root, id: ++ids };
      const hash = hashName(root.id, name);
      node.name_next = nameTable[hash];
      nameTable[hash] = node;
      return node;
    };
    return { emscriptenFs, nodefs, root, add, errors };
  }

  it('syncs a file through its host descriptor and a folder through one of its own, and answers 0 to Postgres', () => {
    const dir = newDir();
    fs.writeFileSync(path.join(dir, 'wal'), 'x');
    const tree = fakeTree(dir);
    const host = countingHost();
    patchNodefs(tree.emscriptenFs, tree.nodefs, host);
    const fsync = tree.nodefs.stream_ops.fsync;
    if (!fsync) throw new Error('no fsync installed');
    const nfd = fs.openSync(path.join(dir, 'wal'), 'r+');
    try {
      expect(fsync({ node: tree.add('wal', 0o100600), nfd })).toBe(0);
    } finally {
      fs.closeSync(nfd);
    }
    expect(fsync({ node: tree.root })).toBe(0);
    if (PROC_FDS) expect(host.synced).toEqual([path.join(dir, 'wal'), dir]);
    else expect(host.synced).toHaveLength(2);
  });

  it('passes a failed sync on to Postgres as an error (which PANICs) and reports the file', () => {
    const dir = newDir();
    const tree = fakeTree(dir);
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    const failing: HostSync = {
      ...countingHost(),
      fsyncSync: () => {
        throw eio;
      },
    };
    const reported: string[] = [];
    patchNodefs(tree.emscriptenFs, tree.nodefs, failing, (file) => reported.push(file));
    const fsync = tree.nodefs.stream_ops.fsync;
    if (!fsync) throw new Error('no fsync installed');
    expect(() => fsync({ node: tree.add('pg_control', 0o100600), nfd: 99 })).toThrow('ErrnoError');
    expect(tree.errors).toEqual([eio]);
    expect(reported).toEqual([path.join(dir, 'pg_control')]);
  });

  it('renames over an existing file in one host rename and forgets the replaced node', () => {
    const dir = newDir();
    fs.writeFileSync(path.join(dir, 'pg_filenode.map.tmp'), 'new');
    fs.writeFileSync(path.join(dir, 'pg_filenode.map'), 'old');
    const tree = fakeTree(dir);
    patchNodefs(tree.emscriptenFs, tree.nodefs);
    const replaced = tree.add('pg_filenode.map', 0o100600);
    const renamed = tree.add('pg_filenode.map.tmp', 0o100600);
    // As FS.rename does: the moving node leaves the table before node_ops.rename and comes back after.
    tree.emscriptenFs.hashRemoveNode(renamed);
    tree.nodefs.node_ops.rename(renamed, tree.root, 'pg_filenode.map');
    expect(fs.readdirSync(dir)).toEqual(['pg_filenode.map']);
    expect(fs.readFileSync(path.join(dir, 'pg_filenode.map'), 'utf8')).toBe('new');
    expect(renamed.name).toBe('pg_filenode.map');
    expect(tree.emscriptenFs.nameTable).not.toContain(replaced);
  });
});

describe('openPglite on a directory', () => {
  it('opens with fsync on, migrates, and keeps its rows through close and reopen', async () => {
    const dir = newDir();
    const db = await openPglite({ dataDir: dir });
    expect(await db.query('SELECT current_setting($1) AS fsync', ['fsync'])).toEqual([{ fsync: 'on' }]);
    expect(await db.query('SHOW wal_sync_method')).toEqual([{ wal_sync_method: 'fsync' }]);
    const ran = await migrate(db);
    expect(ran.length).toBeGreaterThan(0);
    await db.close();
    expect(fs.existsSync(path.join(dir, CREATING_MARKER))).toBe(false);

    const again = await openPglite({ dataDir: dir });
    expect(await migrate(again)).toEqual([]);
    const [row] = await again.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM schema_migrations',
    );
    expect(Number(row?.count)).toBe(ran.length);
    await again.close();
  });

  it.skipIf(!PROC_FDS)('syncs a WAL segment on the host before a commit returns', async () => {
    const host = countingHost();
    const { db, close } = await openDurablePglite(newDir(), { host });
    await db.query('CREATE TABLE visita (id serial PRIMARY KEY, nome text)');
    let atInsert = 0;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO visita (nome) VALUES ($1)', ['poste 12']);
      atInsert = host.synced.length;
    });
    expect(host.synced.slice(atInsert)).toContainEqual(expect.stringMatching(WAL_SEGMENT));
    await close();
  });

  it('checkpoints on its own, which single-user Postgres never does', async () => {
    const { db, close } = await openDurablePglite(newDir(), { checkpointEveryMs: 200 });
    const checkpoint = async () =>
      (await db.query<{ lsn: string }>('SELECT checkpoint_lsn::text AS lsn FROM pg_control_checkpoint()'))
        .rows[0]?.lsn;
    const first = await checkpoint();
    await db.query('CREATE TABLE visita (id serial PRIMARY KEY, nome text)');
    await db.query('INSERT INTO visita (nome) VALUES ($1)', ['poste 12']);
    await expect.poll(checkpoint, { timeout: 20_000, interval: 200 }).not.toBe(first);
    await close();
  });

  it('makes again a directory whose creation was interrupted', async () => {
    const dir = newDir();
    fs.mkdirSync(path.join(dir, 'base'), { recursive: true });
    fs.writeFileSync(path.join(dir, CREATING_MARKER), '');
    fs.writeFileSync(path.join(dir, 'PG_VERSION'), '18\n');
    fs.writeFileSync(path.join(dir, 'base', 'half-written'), '');
    const db = await openPglite({ dataDir: dir });
    expect(await db.query('SELECT 1 AS um')).toEqual([{ um: 1 }]);
    await db.close();
    expect(fs.existsSync(path.join(dir, CREATING_MARKER))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'base', 'half-written'))).toBe(false);
  });

  it('stays in memory with fsync off when given no directory (the tests), as fast as before', async () => {
    const db = await openPglite({});
    expect(await db.query('SHOW fsync')).toEqual([{ fsync: 'off' }]);
    await db.close();
  });
});

/** The other process's side: opens `dir` and does what `mode` says, printing each step on stdout. */
const CHILD = `
import fs from 'node:fs';
import { openPglite } from ${JSON.stringify(pathToFileURL(path.join(DB_DIR, 'database.ts')).href)};
import { openDurablePglite } from ${JSON.stringify(pathToFileURL(path.join(DB_DIR, 'pglite-durable.ts')).href)};
const [mode, dir, marker] = process.argv.slice(2);
if (mode === 'trace') {
  const db = await openPglite({ dataDir: dir });
  await db.query('CREATE TABLE visita (id serial PRIMARY KEY, nome text)');
  fs.writeFileSync(marker + '-before', '');
  await db.transaction(async (tx) => { await tx.query('INSERT INTO visita (nome) VALUES ($1)', ['poste 12']); });
  fs.writeFileSync(marker + '-after', '');
  await db.close();
} else if (mode === 'commits') {
  const db = await openPglite({ dataDir: dir });
  await db.query('CREATE TABLE visita (n integer PRIMARY KEY)');
  for (let n = 1; ; n++) {
    await db.transaction(async (tx) => { await tx.query('INSERT INTO visita (n) VALUES ($1)', [n]); });
    console.log('committed ' + n);
  }
} else if (mode === 'failing-disk') {
  const state = { failing: false };
  const host = {
    openSync: fs.openSync, closeSync: fs.closeSync,
    fsyncSync(fd) {
      if (state.failing) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      fs.fsyncSync(fd);
    },
  };
  const { db } = await openDurablePglite(dir, { host });
  await db.query('CREATE TABLE visita (n integer PRIMARY KEY)');
  await db.query('INSERT INTO visita (n) VALUES (1)');
  state.failing = true;
  await db.transaction(async (tx) => { await tx.query('INSERT INTO visita (n) VALUES (2)'); });
  console.log('committed 2');
}
`;
const childScript = path.join(scratch, 'child.mts');
fs.writeFileSync(childScript, CHILD);

interface Child {
  process: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runChild(args: string[], wrapper: string[] = []): Child {
  const [command = process.execPath, ...rest] = [
    ...wrapper,
    process.execPath,
    '--import',
    'tsx',
    childScript,
    ...args,
  ];
  const child = spawn(command, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { process: child, stdout, stderr, exited };
}

/** The numbers the child printed as committed. */
const committed = (child: Child) =>
  [...child.stdout.join('').matchAll(/^committed (\d+)$/gm)].map((match) => Number(match[1]));

describe('another process on the directory', () => {
  it.skipIf(!STRACE)(
    "under strace: a WAL segment fsynced between the transaction's start and the commit's return",
    async () => {
      const dir = newDir();
      const trace = path.join(scratch, 'strace.txt');
      const marker = path.join(scratch, 'marker');
      // -y names each descriptor's file in the trace: fsync(20</data/pg_wal/000000010000000000000001>) = 0.
      const child = runChild(
        ['trace', dir, marker],
        ['strace', '-f', '-y', '-o', trace, '-e', 'trace=openat,fsync,fdatasync'],
      );
      const { code } = await child.exited;
      expect(code, child.stderr.join('')).toBe(0);

      // Each call where it starts (a call another thread interrupts is split into '<unfinished ...>' and
      // '<... resumed>' lines; its start has the arguments).
      const events: { call: 'open' | 'fsync' | 'fdatasync'; file: string }[] = [];
      for (const line of fs.readFileSync(trace, 'utf8').split('\n')) {
        const open = /\bopenat\(AT_FDCWD(?:<[^>]*>)?, "([^"]+)"/.exec(line);
        if (open?.[1]) events.push({ call: 'open', file: open[1] });
        const sync = /\b(fsync|fdatasync)\(\d+<([^>]+)>/.exec(line);
        if (sync?.[1] && sync[2])
          events.push({ call: sync[1] === 'fsync' ? 'fsync' : 'fdatasync', file: sync[2] });
      }
      const before = events.findIndex((event) => event.call === 'open' && event.file === `${marker}-before`);
      const after = events.findIndex((event) => event.call === 'open' && event.file === `${marker}-after`);
      expect(before).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(before);
      const duringCommit = events.slice(before, after).filter((event) => event.call === 'fsync');
      expect(duringCommit.map((event) => event.file)).toContainEqual(expect.stringMatching(WAL_SEGMENT));
      // Before this work there was not one sync in the whole trace.
      expect(events.filter((event) => event.call === 'fsync').length).toBeGreaterThan(10);
    },
    180_000,
  );

  it('SIGKILLed while committing: every commit it reported is there at the next open', async () => {
    const dir = newDir();
    const child = runChild(['commits', dir]);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.process.kill('SIGKILL');
        reject(new Error(`no commits: ${child.stderr.join('')}`));
      }, 120_000);
      child.process.stdout?.on('data', () => {
        if (committed(child).length < 25) return;
        clearTimeout(timer);
        child.process.kill('SIGKILL');
        resolve();
      });
    });
    expect((await child.exited).signal).toBe('SIGKILL');
    const reported = committed(child);

    const db = await openPglite({ dataDir: dir });
    const rows = await db.query<{ n: number }>('SELECT n FROM visita ORDER BY n');
    await db.close();
    const stored = rows.map((row) => row.n);
    expect(stored.slice(0, reported.length)).toEqual(reported);
  }, 180_000);

  it('a sync the disk refuses stops the process before the commit returns; the directory opens again', async () => {
    const dir = newDir();
    const child = runChild(['failing-disk', dir]);
    const { code } = await child.exited;
    expect(code).toBe(70);
    expect(committed(child)).toEqual([]);
    expect(child.stderr.join('')).toMatch(/o disco recusou a sincronização de .*pg_wal/);

    const db = await openPglite({ dataDir: dir });
    const rows = await db.query<{ n: number }>('SELECT n FROM visita ORDER BY n');
    await db.close();
    expect(rows.map((row) => row.n)[0]).toBe(1);
  }, 180_000);
});
