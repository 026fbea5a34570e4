// Ingest (issue 22) as a user meets it: the real server (`server/src/main.ts`, the command `npm start` runs) on a
// database of its own in the PostgreSQL of DATABASE_URL (keep its default durability: fsync and synchronous_commit
// on), and a separate client process sending new units, each with a unique real camera JPEG (~527 KB), over
// keep-alive HTTP at concurrency 1 and 8, for 1 and 2 workers (WORKERS). Without DATABASE_URL it runs on PGlite,
// one worker (an embedded database is one process's), and says so: not the figure of record.
//   INGEST_RECORDS=1500   records at concurrency 8 (a fifth of it at concurrency 1)
//   INGEST_WORKERS=1,2    the worker counts to compare
//   INGEST_SERVER_ROOT    another checkout whose server to measure (an older build, runs alternated with this one)
//   INGEST_FLAGS=on,off   issue 24's quality flags computed by the upload (on, the default) or not (SINALIZACOES=0),
//                         each on a fresh database, alternated
//   INGEST_MESMO_LUGAR=1  every record on one spot (each a near duplicate of the ones before: the flags' worst
//                         case); by default spread over a 1 km zone as a crew's records are
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openPostgres } from '../server/src/db/database.ts';
import { benchProject, runClientProcess } from './support.ts';

const RECORDS = Number(process.env.INGEST_RECORDS ?? 1500);
const WORKERS = (process.env.INGEST_WORKERS ?? '1,2').split(',').map(Number);
const FLAGS = (process.env.INGEST_FLAGS ?? 'on').split(',').map((value) => value.trim() !== 'off');
const ROOT = path.resolve(import.meta.dirname, '..');
/** A real camera's JPEG (shared/realworld/README.md), padded with a comment segment to the 527 KB. */
const PHOTO = path.resolve(ROOT, '../shared/realworld/jpg/Reconyx_HC500_Hyperfire.jpg');
const PASSWORD = 'bench-ingest-senha-1';

/** The client: its own process; each body is the photo with a fresh comment segment, so no two are alike. */
const CLIENT = String.raw`
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
const [origin, cookie, projeto, photoFile, plan, sameSpot] = process.argv.slice(1);
const oneSpot = sameSpot === '1';
// One account sends everything: its records 15 s apart in collection time, as a crew's are, not a technician
// crossing the zone in milliseconds (which the pace flag would mark on every record).
let collected = Date.now() - 30 * 86400000;
const nextDataHora = () => (collected += 15000);
const photo = fs.readFileSync(photoFile);
const PAD = 527 * 1024 - photo.length;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const boundary = '----novusbench' + crypto.randomBytes(8).toString('hex');
function field(name, value) {
  return '--' + boundary + '\r\nContent-Disposition: form-data; name="' + name + '"\r\n\r\n' + value + '\r\n';
}
function body() {
  // Spread over 'Zona Centro' (about 1 km by 1 km) as a crew's records are; INGEST_MESMO_LUGAR=1: all on one
  // spot, every upload a near duplicate of those before it (the flags' worst case).
  const at = oneSpot ? { lat: -25.435, lng: -49.275 }
    : { lat: -25.435 + (Math.random() - 0.5) * 0.009, lng: -49.275 + (Math.random() - 0.5) * 0.009 };
  const fields = { id: crypto.randomUUID(), projeto, coordenadas: JSON.stringify(at),
    dataHora: String(nextDataHora()), precisao: '4', tipoUnidade: 'SDU', tipoEdificacao: 'Residencial',
    tipoImovel: 'RESIDENCIAL', numero: '10', quantidade: '1' };
  const head = Buffer.from(Object.entries(fields).map(([k, v]) => field(k, v)).join('') +
    '--' + boundary + '\r\nContent-Disposition: form-data; name="fotos"; filename="0.jpg"\r\nContent-Type: image/jpeg\r\n\r\n');
  // SOI, then comment segments of random bytes (a unique photo), then the camera's file after its SOI.
  const segments = [];
  for (let left = PAD; left > 4; ) {
    const segment = Buffer.alloc(Math.min(65537, left));
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(segment.length - 2, 2);
    crypto.randomFillSync(segment, 4);
    segments.push(segment);
    left -= segment.length;
  }
  return [head, photo.subarray(0, 2), ...segments, photo.subarray(2), Buffer.from('\r\n--' + boundary + '--\r\n')];
}
function send() {
  const chunks = body();
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const request = http.request(origin + '/api/unidade', { method: 'POST', agent, headers: {
      cookie, 'content-type': 'multipart/form-data; boundary=' + boundary, 'content-length': length } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ ms: performance.now() - t0, status: response.statusCode }));
    });
    request.on('error', () => resolve({ ms: performance.now() - t0, status: -1 }));
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}
for (const step of JSON.parse(plan)) {
  const samples = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: step.concurrency }, async () => {
    while (next < step.records) { next++; samples.push(await send()); }
  }));
  const seconds = (performance.now() - started) / 1000;
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ concurrency: step.concurrency, records: step.records, seconds,
    errors: samples.filter((s) => s.status !== 201).length, p95: ms[Math.floor(ms.length * 0.95)] ?? 0 }) + '\n');
}
agent.destroy();
`;

interface Step {
  concurrency: number;
  records: number;
  seconds: number;
  errors: number;
  p95: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** `npm start`'s server (without the web build) as its own process(es), ready once it answers /api/health. */
async function startServer(env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess> {
  // INGEST_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server (DEVELOPERS.md: profile, don't guess).
  const nodeArgs = (process.env.INGEST_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: process.env.INGEST_SERVER_ROOT ?? ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let tries = 0; tries < 600; tries += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return child;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not start');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A database of its own on DATABASE_URL's cluster (dropped afterwards), or a PGlite folder. */
async function database(): Promise<{ env: NodeJS.ProcessEnv; drop: () => Promise<void>; engine: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-ingest-'));
  const url = process.env.DATABASE_URL;
  const base = {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    AUTH_SECRET: 'bench-ingest-secret-0123456789abcdef',
  };
  if (!url) {
    return {
      env: { ...base, DATABASE_URL: '' },
      engine: 'PGlite',
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `novus_ingest_${crypto.randomBytes(4).toString('hex')}`;
  const admin = openPostgres({ connectionString: url });
  await admin.query(`CREATE DATABASE ${name}`);
  const fsync = (await admin.query<{ fsync: string }>('SHOW fsync'))[0]?.fsync;
  if (fsync !== 'on') console.log(`warning: fsync is ${fsync}: not PostgreSQL's default durability`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    env: { ...base, DATABASE_URL: own.toString() },
    engine: 'PostgreSQL',
    drop: async () => {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const rows: Record<string, string | number>[] = [];
const runs = (process.env.DATABASE_URL ? WORKERS : [1]).flatMap((workers) =>
  FLAGS.map((flags) => ({ workers, flags })),
);
for (const { workers, flags } of runs) {
  const { env, drop, engine } = await database();
  const port = await freePort();
  const server = await startServer(
    { ...env, WORKERS: String(workers), SINALIZACOES: flags ? '1' : '0' },
    port,
  );
  try {
    const origin = `http://127.0.0.1:${port}`;
    const { cookie, projeto } = await benchProject(origin, 'admin', PASSWORD, 'Ingest');
    const plan = [
      { concurrency: 8, records: 100 }, // warm-up, not reported
      { concurrency: 1, records: Math.ceil(RECORDS / 5) },
      { concurrency: 8, records: RECORDS },
    ];
    const steps = (
      await runClientProcess(CLIENT, [
        origin,
        cookie,
        projeto,
        PHOTO,
        JSON.stringify(plan),
        process.env.INGEST_MESMO_LUGAR === '1' ? '1' : '0',
      ])
    )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Step)
      .slice(1);
    for (const step of steps) {
      rows.push({
        engine,
        workers,
        flags: flags ? 'on' : 'off',
        concurrency: step.concurrency,
        records: step.records,
        'records/s': Number((step.records / step.seconds).toFixed(1)),
        'p95 ms': Math.round(step.p95),
        errors: step.errors,
      });
    }
  } finally {
    await stopServer(server);
    await drop();
  }
}
console.table(rows);
console.log(
  'ingest: ' +
    rows
      .map((row) => `${row.workers}w flags ${row.flags} c=${row.concurrency} ${row['records/s']}/s`)
      .join(', ') +
    ' (ODK Central, DESIGN.md: ≈ 44/s)',
);
if (rows.some((row) => Number(row.errors) > 0)) process.exitCode = 1;
