// The crash campaign (issue 38): the real server (PostgreSQL, two workers) on a PostgreSQL cluster of its own,
// devices uploading units with unique photos and retrying each until it is acknowledged, and crashes at seeded
// random moments: SIGKILL of a worker, SIGKILL of the whole server then a restart, an immediate stop of PostgreSQL
// then a start. At the end every record a device saw acknowledged is on the server once with its photos
// byte-identical, and the server came back by itself from everything but the whole-server kill.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Database, openPostgres } from '../../src/db/database.ts';
import { prng } from './fault-campaign.ts';
import { fakeJpeg, multipart } from './multipart.ts';
import { call, login, type ServerProcess, startServer, stopServer } from './server-process.ts';
import { sample } from './test-app.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The newest PostgreSQL's bin folder of the Debian layout (as .ci/run finds it), or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root) : [];
  const newest = versions
    .filter((version) => fs.existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : path.join(root, newest, 'bin');
}

/** A port nothing listens on now (the system's choice). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/**
 * A throwaway PostgreSQL cluster that a test may stop at once (`pg_ctl -m immediate`, as a crash) and start again,
 * owned by the postgres user (initdb refuses root), on a free port, fsync as configured by default.
 */
export class PostgresCluster {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async create(bin: string): Promise<PostgresCluster> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-crash-pg-'));
    const cluster = new PostgresCluster(bin, dir, await freePort());
    if (process.getuid?.() === 0) {
      const ids = await Promise.all(['-u', '-g'].map((flag) => run('id', [flag, 'postgres'])));
      const [uid, gid] = ids.map(({ stdout }) => Number(stdout.trim()));
      fs.chownSync(dir, uid ?? 0, gid ?? 0);
    }
    // --no-sync: the files initdb writes need not reach the disk for a test; the server itself syncs as always.
    await cluster.pg('initdb', ['-D', cluster.data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await cluster.start();
    return cluster;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates a database with PostGIS, as the server expects to find it. */
  async createDatabase(name: string): Promise<string> {
    const admin = openPostgres({ connectionString: this.url('postgres') });
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.close();
    const db = openPostgres({ connectionString: this.url(name) });
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await db.close();
    return this.url(name);
  }

  /** Starts it and waits until it accepts connections (after crash recovery, when it was stopped at once). */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`;
    const log = path.join(this.dir, 'log');
    await this.pg('pg_ctl', ['-D', this.data, '-l', log, '-o', options, '-w', '-t', '120', 'start']);
  }

  /** Stops it as a crash would: every backend killed, no checkpoint, recovery from the WAL at the next start. */
  async stopImmediately(): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stopImmediately().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Runs one of PostgreSQL's programs as the postgres user. */
  private async pg(program: string, args: string[]): Promise<void> {
    const command = path.join(this.bin, program);
    const [file, argv] =
      process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    try {
      await run(file, argv, { cwd: this.dir, timeout: 180_000 });
    } catch (error) {
      const log = path.join(this.dir, 'log');
      const tail = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${program} ${args.join(' ')} failed: ${String(error)}\n${tail}`);
    }
  }
}

/** The processes a process started (a cluster primary's workers), from /proc. */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/))
      .filter((item) => item !== '')
      .map(Number);
  } catch {
    return [];
  }
}

const MAIN = path.join('server', 'src', 'main.ts');

/** A cluster primary's workers: its children running the server (tsx starts an esbuild service beside them). */
export function workerPids(pid: number): number[] {
  return childPids(pid).filter((child) => {
    try {
      return fs
        .readFileSync(`/proc/${child}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.endsWith(MAIN));
    } catch {
      return false;
    }
  });
}

/** Whether a process still exists (a zombie not yet reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** SIGKILL of a server: its workers and its primary at once, as a power cut of the process tree; gone when it resolves. */
export async function killServer(server: ServerProcess): Promise<void> {
  const pid = server.process.pid;
  if (pid === undefined) return;
  const pids = [pid, ...childPids(pid)];
  for (const each of pids) {
    try {
      process.kill(each, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await server.exited;
  for (const started = Date.now(); pids.some(alive) && Date.now() - started < 10_000;) await sleep(50);
}

/** Calls `fn` until it returns true, every 100 ms, for at most `ms`; resolves with how long it took. */
export async function eventually(fn: () => Promise<boolean> | boolean, ms: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (
      await Promise.resolve()
        .then(fn)
        .catch(() => false)
    )
      return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(100);
  }
}

export const ADMIN = { login: 'admin-crash', password: 'senha-do-admin-123' };
const SENHA = 'senha-de-teste-123';

/** The environment of a server of the campaign: two workers, its port, its own photo folder. */
export function serverEnv(databaseUrl: string, dataDir: string, port: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    WORKERS: '2',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_SECRET: 'segredo-da-campanha-de-quedas',
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_DIST: path.join(dataDir, 'sem-web'),
  };
}

/** A project with the sample zoning and a técnico in its 'Zona Centro', made through the API; their ids and cookie. */
export async function fieldProject(server: ServerProcess, nome: string) {
  const admin = await login(server, ADMIN.login, ADMIN.password);
  const created = async (response: Response) => {
    const text = await response.text();
    if (response.status !== 201) throw new Error(`${response.url}: ${response.status} ${text}`);
    return JSON.parse(text) as { _id: string; zonas?: { _id: string; label: string }[] };
  };
  const cliente = await created(
    await call(server, 'POST', '/api/cliente', { cookie: admin, json: { nome } }),
  );
  const projeto = await created(
    await call(server, 'POST', '/api/projeto', {
      cookie: admin,
      form: {
        nome,
        cliente: cliente._id,
        fuso: '22',
        fluxos: ['hc'],
        kml: sample('zoneamento-curitiba.kml'),
      },
    }),
  );
  const centro = projeto.zonas?.find((zona) => zona.label === 'Zona Centro')?._id ?? '';
  const tecnicoLogin = `tecnico-${crypto.randomBytes(4).toString('hex')}`;
  await created(
    await call(server, 'POST', '/api/user', {
      cookie: admin,
      form: {
        login: tecnicoLogin,
        firstName: 'Campo',
        lastName: 'Quedas',
        password: SENHA,
        passwordConfirmation: SENHA,
        roles: 'tecnico',
        zonas: [centro],
        cliente: cliente._id,
      },
    }),
  );
  return { admin, projeto: projeto._id, tecnico: await login(server, tecnicoLogin, SENHA) };
}

/** A unit inside 'Zona Centro' of the sample zoning, as the app uploads it: its id, photos and multipart body. */
export function unidade(projeto: string, fotos: Buffer[], random: () => number = Math.random) {
  const id = crypto.randomUUID();
  const coordenadas = { lat: -25.435 + (random() - 0.5) * 0.002, lng: -49.275 + (random() - 0.5) * 0.002 };
  const body = multipart(
    {
      id,
      projeto,
      coordenadas: JSON.stringify(coordenadas),
      dataHora: String(Date.now()),
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero: '10',
      quantidade: '1',
    },
    fotos.map((data, slot) => ({ field: 'fotos', filename: `${slot}.jpg`, contentType: 'image/jpeg', data })),
  );
  return { id, fotos, body };
}

export const CRASH_KINDS = ['worker', 'server', 'postgres'] as const;
export type CrashKind = (typeof CRASH_KINDS)[number];

export interface CrashCounts {
  crashes: Record<CrashKind, number>;
  records: number;
  photos: number;
  /** Upload requests sent, first tries and retries. */
  tries: number;
  /** Answers by HTTP status, and 'rede' for a request that got none (refused, reset, cut). */
  answers: Record<string, number>;
  /** Acknowledged records the server does not hold, or holds with other photos, or more than once. */
  lost: number;
  duplicated: number;
  photoMismatches: number;
  /** Rows in the campaign's project that no device made. */
  strays: number;
  /** The longest time no upload was acknowledged while the devices were sending. */
  maxWithoutServerMs: number;
  /** By kind, the longest time from a crash to the acknowledgement of an upload sent after it. */
  maxRecoveryMs: Record<CrashKind, number>;
  /** The longest time PostgreSQL was down (stopped, then started and through its recovery). */
  maxPostgresDownMs: number;
  /** The longest time from PostgreSQL accepting connections again to the server answering /api/health with 200. */
  maxPostgresCatchUpMs: number;
  /** The longest time the primary took to have a killed worker replaced by a running one. */
  maxWorkerRestartMs: number;
  /** The primary's restarts of a worker, by the wait it logged ('0 s' after a run of 10 s or more). */
  restarts: Record<string, number>;
  /** Files left in fotos/tmp at the end (the sweep at start removes them: another part of issue 38). */
  tmpLeft: number;
  problems: string[];
}

export interface CrashCampaignOptions {
  cluster: PostgresCluster;
  databaseUrl: string;
  runs: number;
  seed: number;
  devices?: number;
  log?: (line: string) => void;
}

/** A record a device made, and whether the server acknowledged it. */
interface Made {
  id: string;
  /** SHA-256 of each photo sent, by slot (the bytes themselves would hold hundreds of MB on a long campaign). */
  hashes: string[];
  acknowledged: boolean;
}

/** How long anything may take to come back before the campaign counts it as not recovering by itself. */
const RECOVERY_LIMIT_MS = 90_000;

export async function runCrashCampaign(options: CrashCampaignOptions): Promise<CrashCounts> {
  const { cluster, databaseUrl, runs, seed, devices = 6, log = () => undefined } = options;
  const random = prng(seed);
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-crash-'));
  const env = serverEnv(databaseUrl, dataDir, await freePort());
  const counts: CrashCounts = {
    crashes: { worker: 0, server: 0, postgres: 0 },
    records: 0,
    photos: 0,
    tries: 0,
    answers: {},
    lost: 0,
    duplicated: 0,
    photoMismatches: 0,
    strays: 0,
    maxWithoutServerMs: 0,
    maxRecoveryMs: { worker: 0, server: 0, postgres: 0 },
    maxPostgresDownMs: 0,
    maxPostgresCatchUpMs: 0,
    maxWorkerRestartMs: 0,
    restarts: {},
    tmpLeft: 0,
    problems: [],
  };
  const problem = (text: string) => {
    counts.problems.push(text);
    log(text);
  };

  /** The server running now; one the campaign did not kill must never exit. */
  let server = await startServer('crash', env);
  const killed = new Set<ServerProcess>();
  const watch = (current: ServerProcess) =>
    void current.exited.then((code) => {
      tallyRestarts(current.output.join(''), counts.restarts);
      if (!killed.has(current)) problem(`the server exited by itself (${code}):\n${current.output.join('')}`);
    });
  watch(server);
  const db: Database = openPostgres({ connectionString: databaseUrl });
  /** Devices send while this holds; they stop at once when the campaign fails mid-way. */
  const fleetState = { sending: true, aborted: false };

  try {
    const { projeto, tecnico } = await fieldProject(server, `Quedas ${seed}`);
    const made: Made[] = [];
    /** When each acknowledged try was sent and answered. */
    const acks: { sent: number; done: number }[] = [];
    const crashes: { kind: CrashKind; at: number }[] = [];

    /** One device: units one after the other, each sent until the server acknowledges it (201, or 200 replayed). */
    const device = async (n: number) => {
      const own = prng(seed * 31 + n);
      const pick = (min: number, max: number) => min + Math.floor(own() * (max - min + 1));
      while (fleetState.sending) {
        const fotos = Array.from({ length: pick(1, 3) }, () => fakeJpeg(pick(2_000, 60_000)));
        const unit = unidade(projeto, fotos, own);
        const record: Made = { id: unit.id, hashes: fotos.map(sha256), acknowledged: false };
        made.push(record);
        counts.records += 1;
        counts.photos += fotos.length;
        const since = Date.now();
        for (let attempt = 1; !record.acknowledged && !fleetState.aborted; attempt += 1) {
          counts.tries += 1;
          let status = 'rede';
          const sent = Date.now();
          try {
            const response = await fetch(`http://127.0.0.1:${env.PORT}/api/unidade`, {
              method: 'POST',
              headers: { ...unit.body.headers, cookie: tecnico },
              body: unit.body.payload,
              signal: AbortSignal.timeout(30_000),
            });
            status = String(response.status);
            const text = await response.text();
            if (response.status === 201 || response.status === 200) {
              record.acknowledged = true;
              acks.push({ sent, done: Date.now() });
            } else if (response.status < 500) {
              problem(`device ${n}: ${unit.id} answered ${response.status} ${text.slice(0, 200)}`);
            }
          } catch {
            status = 'rede';
          }
          counts.answers[status] = (counts.answers[status] ?? 0) + 1;
          if (record.acknowledged) break;
          if (Date.now() - since > RECOVERY_LIMIT_MS * 2) {
            problem(`device ${n}: ${unit.id} not acknowledged after ${attempt} tries`);
            break;
          }
          await sleep(Math.min(100 * attempt, 1000) + pick(0, 100));
        }
        await sleep(pick(150, 1200));
      }
    };
    const fleet = Array.from({ length: devices }, (_unused, n) => device(n + 1));

    const answers = async (status: number) => (await call(server, 'GET', '/api/health')).status === status;
    // The first three crashes are one of each kind (a short campaign meets them all), then 70 % worker kills,
    // 20 % whole-server kills, 10 % PostgreSQL stops.
    const firstKinds: CrashKind[] = [...CRASH_KINDS];
    for (let i = firstKinds.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [firstKinds[i], firstKinds[j]] = [firstKinds[j] ?? 'worker', firstKinds[i] ?? 'worker'];
    }
    for (let crash = 1; crash <= runs; crash += 1) {
      await sleep(between(500, 3000));
      const draw = random();
      const kind: CrashKind =
        firstKinds[crash - 1] ?? (draw < 0.7 ? 'worker' : draw < 0.9 ? 'server' : 'postgres');
      counts.crashes[kind] += 1;
      const primaryPid = server.process.pid ?? 0;
      if (kind === 'worker') {
        const workers = workerPids(primaryPid);
        const victim = workers[Math.floor(random() * workers.length)];
        if (victim === undefined) {
          problem(`crash ${crash}: the primary has no worker to kill`);
          continue;
        }
        crashes.push({ kind, at: Date.now() });
        process.kill(victim, 'SIGKILL');
        try {
          const took = await eventually(() => {
            const now = workerPids(primaryPid);
            return now.length === 2 && !now.includes(victim);
          }, RECOVERY_LIMIT_MS);
          counts.maxWorkerRestartMs = Math.max(counts.maxWorkerRestartMs, took);
        } catch {
          problem(
            `crash ${crash}: worker ${victim} killed, not replaced within ${RECOVERY_LIMIT_MS / 1000} s`,
          );
        }
      } else if (kind === 'server') {
        crashes.push({ kind, at: Date.now() });
        killed.add(server);
        await killServer(server);
        server = await startServer('crash', env);
        watch(server);
      } else {
        const stopped = Date.now();
        crashes.push({ kind, at: stopped });
        await cluster.stopImmediately();
        await sleep(between(0, 2000));
        await cluster.start();
        counts.maxPostgresDownMs = Math.max(counts.maxPostgresDownMs, Date.now() - stopped);
      }
      // Recovered by itself (the whole-server kill was restarted above): the server answers again.
      try {
        const took = await eventually(() => answers(200), RECOVERY_LIMIT_MS);
        if (kind === 'postgres') counts.maxPostgresCatchUpMs = Math.max(counts.maxPostgresCatchUpMs, took);
      } catch {
        problem(`crash ${crash} (${kind}): the server did not answer within ${RECOVERY_LIMIT_MS / 1000} s`);
      }
      if (crash % 10 === 0) log(`crash campaign: ${crash}/${runs} crashes, ${counts.records} records`);
    }

    fleetState.sending = false;
    await Promise.all(fleet);

    // Time without a server: from each crash to the first acknowledgement of an upload sent after it, and the
    // longest gap between two acknowledgements.
    for (const { kind, at } of crashes) {
      const after = acks.filter((ack) => ack.sent >= at).map((ack) => ack.done);
      if (after.length > 0)
        counts.maxRecoveryMs[kind] = Math.max(counts.maxRecoveryMs[kind], Math.min(...after) - at);
    }
    const done = acks.map((ack) => ack.done).sort((a, b) => a - b);
    for (let i = 1; i < done.length; i += 1) {
      counts.maxWithoutServerMs = Math.max(counts.maxWithoutServerMs, (done[i] ?? 0) - (done[i - 1] ?? 0));
    }

    await verify(made, projeto, tecnico);
    const tmp = path.join(dataDir, 'fotos', 'tmp');
    counts.tmpLeft = fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
    return counts;
  } finally {
    fleetState.sending = false;
    fleetState.aborted = true;
    killed.add(server);
    await stopServer(server);
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  /** Every acknowledged record on the server once, with its photos byte-identical; nothing else in the project. */
  async function verify(made: Made[], projeto: string, tecnico: string): Promise<void> {
    const rows = await db.query<{ id: string; n: number }>(
      'SELECT id, count(*)::int AS n FROM registros WHERE projeto = $1 GROUP BY id',
      [projeto],
    );
    const stored = new Map(rows.map((row) => [row.id, row.n]));
    const fotos = await db.query<{ registro: string; slot: number; hash: string }>(
      'SELECT f.registro, f.slot, f.hash FROM fotos f JOIN registros r ON r.id = f.registro WHERE r.projeto = $1',
      [projeto],
    );
    const hashes = new Map<string, Map<number, string>>();
    for (const foto of fotos) {
      const slots = hashes.get(foto.registro) ?? new Map<number, string>();
      slots.set(foto.slot, foto.hash);
      hashes.set(foto.registro, slots);
    }
    const ids = new Set(made.map((record) => record.id));
    counts.strays = rows.filter((row) => !ids.has(row.id)).length;
    if (counts.strays > 0) problem(`${counts.strays} records in the project that no device made`);
    const checks: (() => Promise<void>)[] = [];
    for (const record of made) {
      if (!record.acknowledged) {
        problem(`${record.id} was never acknowledged`);
        continue;
      }
      const n = stored.get(record.id) ?? 0;
      if (n === 0) {
        counts.lost += 1;
        problem(`${record.id} acknowledged, not on the server`);
        continue;
      }
      if (n > 1) {
        counts.duplicated += n - 1;
        problem(`${record.id} on the server ${n} times`);
      }
      const slots = hashes.get(record.id) ?? new Map<number, string>();
      if (slots.size !== record.hashes.length) {
        counts.photoMismatches += Math.abs(slots.size - record.hashes.length);
        problem(`${record.id} has ${slots.size} photos, sent ${record.hashes.length}`);
      }
      record.hashes.forEach((hash, slot) => {
        checks.push(async () => {
          const response = await call(server, 'GET', `/api/fotos/${record.id}/${slot}`, { cookie: tecnico });
          const bytes = Buffer.from(await response.arrayBuffer());
          if (response.status !== 200 || slots.get(slot) !== hash || sha256(bytes) !== hash) {
            counts.photoMismatches += 1;
            problem(`${record.id} photo ${slot}: ${response.status}, not the bytes sent`);
          }
        });
      });
    }
    // Eight at a time: thousands of photos, one server.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let check = checks.pop(); check; check = checks.pop()) await check();
      }),
    );
  }
}

/** Counts the primary's restart lines in a server's output ('iniciando outro.' or '… outro em 2 s.') by wait. */
function tallyRestarts(output: string, into: Record<string, number>): void {
  for (const [, wait] of output.matchAll(/iniciando outro(?: em ([\d,]+) s)?\./g)) {
    const key = `${wait ?? '0'} s`;
    into[key] = (into[key] ?? 0) + 1;
  }
}

export function formatCrashCounts(counts: CrashCounts, seed: number): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const answers = Object.entries(counts.answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  const { worker, server, postgres } = counts.crashes;
  const restarts = Object.entries(counts.restarts)
    .sort(([a], [b]) => parseFloat(a.replace(',', '.')) - parseFloat(b.replace(',', '.')))
    .map(([wait, n]) => `${wait} ×${n}`)
    .join(', ');
  return [
    `crash campaign (PostgreSQL, 2 workers, seed ${seed}): ${worker + server + postgres} crashes: ${worker} worker SIGKILLs, ` +
      `${server} whole-server SIGKILLs + restart, ${postgres} immediate stops of PostgreSQL`,
    `  ${counts.records} records, ${counts.photos} photos, ${counts.tries} tries; answers ${answers}`,
    `  lost ${counts.lost}, duplicated ${counts.duplicated}, photo mismatches ${counts.photoMismatches}, strays ${counts.strays}`,
    `  max time without an acknowledgement ${seconds(counts.maxWithoutServerMs)}; from a crash to the ` +
      `acknowledgement of an upload sent after it: worker ${seconds(counts.maxRecoveryMs.worker)}, ` +
      `server ${seconds(counts.maxRecoveryMs.server)}, postgres ${seconds(counts.maxRecoveryMs.postgres)}`,
    `  a killed worker replaced within ${seconds(counts.maxWorkerRestartMs)}; PostgreSQL down up to ` +
      `${seconds(counts.maxPostgresDownMs)}, the server answering ${seconds(counts.maxPostgresCatchUpMs)} after it was back`,
    `  the primary's restarts of a worker, by wait: ${restarts}`,
    `  files left in fotos/tmp: ${counts.tmpLeft}`,
  ].join('\n');
}
