// A server of a spec's own, on a database of its own on the PostgreSQL cluster of DATABASE_URL, for journeys the
// run's shared server (PGlite) cannot take: stopping it, restoring its database and photos, starting it again.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN } from './env';

const run = promisify(execFile);
const E2E_DIR = path.resolve(import.meta.dirname, '..');

/** Scratch databases on one cluster, made and dropped with its superuser, and its dump and restore tools. */
export class ScratchDatabases {
  private readonly made = new Set<string>();

  /** `clusterUrl`: any database of the cluster (CI's DATABASE_URL); its host, port and role are used. */
  constructor(private readonly clusterUrl: string) {}

  /** The URL of the database `name` on the cluster. */
  urlOf(name: string): string {
    const url = new URL(this.clusterUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  /** A new empty database, `prefix_` and random hex (specs and their retries side by side never share one); its name. */
  async create(prefix: string): Promise<string> {
    const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
    this.made.add(name);
    await this.sql(`CREATE DATABASE ${name}`);
    return name;
  }

  /** Drops it even with a server still connected (FORCE): a failed journey may leave one running. */
  async drop(name: string): Promise<void> {
    await this.sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    this.made.delete(name);
  }

  async dropAll(): Promise<void> {
    for (const name of [...this.made]) await this.drop(name);
  }

  /** `pg_dump --format=custom`, as docs/operations.md 'Backups and restore' takes the backup. */
  async dump(name: string, file: string): Promise<void> {
    await run('pg_dump', ['--format=custom', `--file=${file}`, this.urlOf(name)]);
  }

  /** `pg_restore --no-owner` into an empty database, as docs/operations.md restores one. */
  async restore(file: string, name: string): Promise<void> {
    await run('pg_restore', ['--no-owner', `--dbname=${this.urlOf(name)}`, file]);
  }

  private async sql(statement: string): Promise<void> {
    await run('psql', ['--no-psqlrc', '--quiet', '-v', 'ON_ERROR_STOP=1', '-c', statement, this.clusterUrl]);
  }
}

/** A port nothing listens on now, for a server that must come back on the same one (the origin of the phone's data). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `node --import tsx ../server/src/main.ts` with the environment of playwright.config.ts's server, on a fixed port
 * and data directory: stopped and started again it is the same origin (the phone's service worker and IndexedDB
 * belong to it) with the same token secret (DATA_DIR/auth-secret), so sessions outlive the restart.
 */
export class OwnServer {
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** What the current process printed, for a failure's message. */
  private output: string[] = [];

  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async create(): Promise<OwnServer> {
    return new OwnServer(await freePort(), fs.mkdtempSync(path.join(os.tmpdir(), 'novus-e2e-own-')));
  }

  /** The photo store: DATA_DIR/fotos (server/src/config.ts, no PHOTO_STORE). */
  get fotosDir(): string {
    return path.join(this.dataDir, 'fotos');
  }

  /**
   * Starts it on `databaseUrl` ('' for PGlite in its data directory), with `env` besides, and resolves once
   * /api/health answers 200 (the database and the photos answer).
   */
  async start(databaseUrl: string, env: Record<string, string> = {}): Promise<void> {
    if (this.child) throw new Error('the server is already running');
    this.output = [];
    const child = spawn(process.execPath, ['--import', 'tsx', '../server/src/main.ts'], {
      cwd: E2E_DIR,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        // One process serves one phone; a cluster per core would only crowd the run's two cores.
        WORKERS: '1',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        ADMIN_LOGIN: ADMIN.login,
        ADMIN_PASSWORD: ADMIN.password,
        WEB_DIST: process.env.E2E_WEB_DIST ?? path.resolve(E2E_DIR, '../web/dist'),
        TILE_URL_STREET: '/tiles/{z}/{x}/{y}.png',
        TILE_URL_SATELLITE: '/tiles/{z}/{x}/{y}.png',
        TILES_DIR: path.resolve(E2E_DIR, 'fixtures/tiles'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => this.output.push(chunk.toString());
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      const healthy = await fetch(`${this.url}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const state = child.exitCode !== null ? `exited with ${child.exitCode}` : 'not healthy within 60 s';
    await this.stop();
    throw new Error(`own server on ${this.url}: ${state}\n${this.output.join('')}`);
  }

  /** SIGTERM (a clean stop: requests in flight finish), SIGKILL if it still runs after 15 s; resolves once gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await this.exited;
      clearTimeout(timer);
    }
  }

  /** Stops it and removes its data directory. */
  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
