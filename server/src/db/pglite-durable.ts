// PGlite on a host directory with Postgres's own durability: a commit that returns is on stable storage.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/*
 * Out of the box PGlite 0.5.8 acknowledges commits that a power cut can take (issue 38, PGlite #1107): it starts
 * Postgres with `-F` (fsync off), and its NodeFS hands Postgres's fsync() to emscripten's NODEFS, which has no
 * fsync of its own (emscripten's fd_sync then answers success without a syscall) and whose fdatasync never looks
 * at the file at all. Postgres already knows when to sync (the WAL before a commit returns, data files at a
 * checkpoint, directories after creating or renaming files): it only needs fsync to reach the host. So:
 *   - NODEFS's streams get an fsync that calls the host's fsync(2) (a directory's through a descriptor of its own);
 *   - Postgres starts with fsync on and `wal_sync_method=fsync`, the one WAL method that goes through fsync()
 *     (fdatasync, its Linux default, cannot be reached from here: emscripten answers it without asking NODEFS);
 *   - NODEFS's rename is one host rename(2) that replaces the target atomically, without its stray unlink first;
 *   - a data directory's files written before (initdb's copy, a tarball, an older Novus with fsync off) are
 *     synced once at open, since Postgres assumes that what it finds at start is already on disk.
 */

/** Postgres's settings the durability rests on, checked at every open. */
const DURABLE_SETTINGS = { fsync: 'on', wal_sync_method: 'fsync', synchronous_commit: 'on' } as const;

/**
 * Present in the data directory while it is being created: a directory left with it by a crash was never handed
 * to anyone (its open did not return), so the next open starts it again from scratch.
 */
export const CREATING_MARKER = '.novus-creating';

/** What the patched streams need of the host: node:fs's calls, or a test's counting copy. */
export interface HostSync {
  fsyncSync(fd: number): void;
  openSync(path: string, flags: string): number;
  closeSync(fd: number): void;
}

/** A node of emscripten's file tree: its name under its parent (the root is its own parent). */
export interface EmscriptenNode {
  name: string;
  mode: number;
  parent: EmscriptenNode;
  id: number;
  name_next?: EmscriptenNode;
}

/** An open file of emscripten's: NODEFS keeps the host descriptor of a regular file in `nfd`. */
export interface EmscriptenStream {
  node: EmscriptenNode;
  nfd?: number;
}

/** The parts of emscripten's FS used here (pglite.js; its published types do not reach this project). */
export interface EmscriptenFs {
  isFile(mode: number): boolean;
  nameTable: Array<EmscriptenNode | undefined>;
  hashName(parentId: number, name: string): number;
  hashRemoveNode(node: EmscriptenNode): void;
}

/** The parts of emscripten's NODEFS that are patched or called (pglite.js, emscripten's library_nodefs.js). */
export interface Nodefs {
  realPath(node: EmscriptenNode): string;
  /** Runs a host call, turning a Node error into the emscripten ErrnoError Postgres sees as errno. */
  tryFSOperation<T>(operation: () => T): T;
  stream_ops: { fsync?: (stream: EmscriptenStream) => number };
  node_ops: { rename(oldNode: EmscriptenNode, newDir: EmscriptenNode, newName: string): void };
}

/**
 * Gives NODEFS an fsync that reaches the host and an atomic rename. The NODEFS object is one module's (one PGlite
 * instance's) and every node points at its stream_ops and node_ops, so this covers files opened before and after.
 */
export function patchNodefs(
  emscriptenFs: EmscriptenFs,
  nodefs: Nodefs,
  host: HostSync = fs,
  onSyncFailure: (file: string, error: unknown) => void = reportSyncFailure,
): void {
  nodefs.stream_ops.fsync = (stream) => {
    const file = nodefs.realPath(stream.node);
    nodefs.tryFSOperation(() => {
      try {
        if (emscriptenFs.isFile(stream.node.mode) && stream.nfd !== undefined) {
          host.fsyncSync(stream.nfd);
          return;
        }
        // A directory has no host descriptor in NODEFS: Postgres syncs one after creating or renaming in it (a new
        // WAL segment's name, durable_rename), so it is opened on the host for the sync.
        const fd = host.openSync(file, 'r');
        try {
          host.fsyncSync(fd);
        } finally {
          host.closeSync(fd);
        }
      } catch (error) {
        onSyncFailure(file, error);
        throw error;
      }
    });
    // emscripten's fd_sync returns this as the call's errno. A failure throws above and reaches Postgres as the
    // host's errno (EIO, ENOSPC...), and Postgres PANICs rather than acknowledge what may not be on disk.
    return 0;
  };
  nodefs.node_ops.rename = (oldNode, newDir, newName) => {
    // NODEFS's own rename first unlinks the target through the virtual tree, by its host path: at best a no-op, at
    // worst (a host path that also resolves virtually) the target gone before the rename, e.g. pg_filenode.map.
    // rename(2) alone replaces the target atomically.
    const newPath = path.join(nodefs.realPath(newDir), newName);
    nodefs.tryFSOperation(() => fs.renameSync(nodefs.realPath(oldNode), newPath));
    // The replaced file's node may still be cached under that name (FS.rename looked it up): drop it, as MEMFS's
    // rename does, so the name finds the renamed node only.
    const replaced = cachedNode(emscriptenFs, newDir, newName);
    if (replaced) emscriptenFs.hashRemoveNode(replaced);
    oldNode.name = newName;
  };
}

/** The node cached for `name` in `dir`, without asking the host (FS.lookupNode would create one). */
function cachedNode(
  emscriptenFs: EmscriptenFs,
  dir: EmscriptenNode,
  name: string,
): EmscriptenNode | undefined {
  let node = emscriptenFs.nameTable[emscriptenFs.hashName(dir.id, name)];
  while (node && !(node.parent.id === dir.id && node.name === name)) node = node.name_next;
  return node;
}

/** Postgres's own message (PANIC: could not fsync...) is not printed by PGlite: the operator gets this one. */
function reportSyncFailure(file: string, error: unknown): void {
  console.error(`PGlite: o disco recusou a sincronização de ${file} (${String(error)}).`);
}

/**
 * Postgres stops at a PANIC (a failed sync) by aborting, and PGlite then neither answers nor fails: it keeps
 * calling into the aborted module and hangs, or worse. As PostgreSQL's postmaster does after a PANIC, the process
 * stops at once, acknowledging nothing more; its supervisor starts it again and Postgres recovers from the WAL.
 */
function exitOnAbort(reason: unknown): never {
  const why = reason === undefined || reason === '' ? '' : ` (${String(reason)})`;
  console.error(`PGlite: o banco parou${why}; o processo sai para ser reiniciado.`);
  process.exit(70);
}

/** PGlite's NodeFS with patchNodefs applied as soon as the module exists, before Postgres opens a file. */
export class DurableNodeFS extends NodeFS {
  readonly #host: HostSync;

  constructor(dataDir: string, host: HostSync = fs) {
    super(dataDir);
    this.#host = host;
  }

  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        onAbort: exitOnAbort,
        preRun: [
          ...(emscriptenOpts.preRun ?? []),
          (mod) => {
            const emscriptenFs: unknown = mod.FS;
            const nodefs: unknown = mod.FS.filesystems.NODEFS;
            // A PGlite whose emscripten moved these would otherwise run with fsync silently doing nothing.
            if (!isEmscriptenFs(emscriptenFs) || !isNodefs(nodefs)) {
              throw new Error(
                'PGlite: emscripten NODEFS is not as expected, cannot make its fsync reach the disk',
              );
            }
            patchNodefs(emscriptenFs, nodefs, this.#host);
          },
        ],
      },
    };
  }
}

function isEmscriptenFs(value: unknown): value is EmscriptenFs {
  return (
    typeof value === 'object' &&
    value !== null &&
    'isFile' in value &&
    typeof value.isFile === 'function' &&
    'nameTable' in value &&
    Array.isArray(value.nameTable) &&
    'hashName' in value &&
    typeof value.hashName === 'function' &&
    'hashRemoveNode' in value &&
    typeof value.hashRemoveNode === 'function'
  );
}

function isNodefs(value: unknown): value is Nodefs {
  return (
    typeof value === 'object' &&
    value !== null &&
    'realPath' in value &&
    typeof value.realPath === 'function' &&
    'tryFSOperation' in value &&
    typeof value.tryFSOperation === 'function' &&
    'stream_ops' in value &&
    typeof value.stream_ops === 'object' &&
    value.stream_ops !== null &&
    'node_ops' in value &&
    typeof value.node_ops === 'object' &&
    value.node_ops !== null &&
    'rename' in value.node_ops
  );
}

/** PGlite's start parameters with fsync on and the WAL synced through fsync(). */
export function durableStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
    '-c',
    'fsync=on',
    '-c',
    'wal_sync_method=fsync',
  ];
}

export type DurableOptions = Omit<PGliteOptions, 'dataDir' | 'fs' | 'startParams'> & {
  host?: HostSync;
  /** Time between checkpoints; CHECKPOINT_EVERY_MS unless a test wants another. */
  checkpointEveryMs?: number;
};

/**
 * How often a checkpoint syncs the data files and lets Postgres drop the WAL before it: Postgres's own
 * checkpoint_timeout, which PGlite's single-user Postgres never acts on (it has no checkpointer), so without this
 * the WAL grows until the database closes and a crash replays all of it.
 */
export const CHECKPOINT_EVERY_MS = 5 * 60_000;

export interface DurablePglite {
  db: PGlite;
  /** Stops the checkpoints, then closes the database (whose shutdown checkpoint syncs everything). */
  close(): Promise<void>;
}

/**
 * Opens (creating it when new) a PGlite database in `dataDir` whose acknowledged commits survive a power cut.
 * A new directory is made complete and synced before this returns, or it is made again at the next open.
 */
export async function openDurablePglite(
  dataDir: string,
  options: DurableOptions = {},
): Promise<DurablePglite> {
  const { host = fs, checkpointEveryMs = CHECKPOINT_EVERY_MS, ...pgliteOptions } = options;
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const fresh =
    !fs.existsSync(path.join(dir, 'PG_VERSION')) || fs.existsSync(path.join(dir, CREATING_MARKER));
  if (fresh) {
    startCreating(dir, host);
  } else {
    // Files an older Novus wrote with fsync off, or whatever was copied in, may still be in the page cache only.
    syncTree(dir, host);
  }
  const db = await PGlite.create({
    ...pgliteOptions,
    fs: new DurableNodeFS(dir, host),
    startParams: durableStartParams(),
  });
  try {
    await checkDurableSettings(db);
    if (fresh) {
      // initdb's files (or a tarball's) were copied in by PGlite without a sync and Postgres will never sync them.
      syncTree(dir, host);
      fs.unlinkSync(path.join(dir, CREATING_MARKER));
      syncPath(dir, host);
    }
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  const stopCheckpoints = checkpointEvery(db, checkpointEveryMs);
  return {
    db,
    async close() {
      await stopCheckpoints();
      await db.close();
    },
  };
}

/** Runs CHECKPOINT every `ms` until the returned function is called (which waits for one under way). */
function checkpointEvery(db: PGlite, ms: number): () => Promise<void> {
  const state: { timer?: NodeJS.Timeout; running: Promise<void>; stopped: boolean } = {
    running: Promise.resolve(),
    stopped: false,
  };
  const schedule = () => {
    state.timer = setTimeout(() => {
      state.running = db
        .query('CHECKPOINT')
        .then(
          () => undefined,
          // A failed sync PANICs Postgres, and the queries after it fail on their own: here it is only told.
          (error: unknown) => console.error(`Checkpoint do PGlite falhou: ${String(error)}`),
        )
        .finally(() => {
          if (!state.stopped) schedule();
        });
    }, ms);
    // Checkpoints never keep a process that is shutting down alive.
    state.timer.unref();
  };
  schedule();
  return async () => {
    state.stopped = true;
    clearTimeout(state.timer);
    await state.running;
  };
}

/** Empties what a crashed creation left, and marks the directory as being created, durably, before PGlite writes. */
function startCreating(dir: string, host: HostSync): void {
  const marker = path.join(dir, CREATING_MARKER);
  if (fs.existsSync(marker)) {
    for (const entry of fs.readdirSync(dir)) {
      // lost+found: the directory may be a file system's root, whose own folder is not ours.
      if (entry !== CREATING_MARKER && entry !== 'lost+found') {
        fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
      }
    }
  }
  fs.writeFileSync(marker, '');
  syncPath(marker, host);
  syncPath(dir, host);
  // The path itself: DATA_DIR and DATA_DIR/pglite may have been made a moment ago (config.ts, mkdir above).
  for (let folder = path.dirname(dir); ; folder = path.dirname(folder)) {
    try {
      syncPath(folder, host);
    } catch (error) {
      // A folder this process may not read (a home 0711) was not made by it, so its entries are old news.
      const code = error instanceof Error && 'code' in error ? error.code : undefined;
      if (code !== 'EACCES' && code !== 'EPERM') throw error;
    }
    if (folder === path.dirname(folder)) break;
  }
}

async function checkDurableSettings(db: PGlite): Promise<void> {
  const names = Object.keys(DURABLE_SETTINGS);
  const { rows } = await db.query<{ name: string; setting: string }>(
    'SELECT name, setting FROM pg_settings WHERE name = ANY($1)',
    [names],
  );
  for (const [name, wanted] of Object.entries(DURABLE_SETTINGS)) {
    const actual = rows.find((row) => row.name === name)?.setting;
    if (actual !== wanted) {
      throw new Error(`PGlite: ${name} is ${actual ?? 'unset'}, not ${wanted}: commits would not be durable`);
    }
  }
}

/** fsync(2) of every file and folder under `dir`, each folder after its entries, then `dir` itself. */
function syncTree(dir: string, host: HostSync): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(child, host);
    else if (entry.isFile()) syncPath(child, host);
  }
  syncPath(dir, host);
}

function syncPath(file: string, host: HostSync): void {
  const fd = host.openSync(file, 'r');
  try {
    host.fsyncSync(fd);
  } finally {
    host.closeSync(fd);
  }
}
