// Soak (issue 12 'Load'): the server listening on a real port in this process, on PostgreSQL as configured (keep
// its default durability: fsync on), and a separate client process sending a unit with a unique 500 KB photo at a
// steady rate for minutes; this process samples its own RSS every second. Then ingest as fast as 8 concurrent
// uploads go, over the same real HTTP. Without DATABASE_URL it runs on PGlite (not the figure of record).
//   SOAK_SECONDS=600     how long the steady part lasts
//   SOAK_RATE=50         records per second sent, each a new record with its own photo
//   SOAK_INGEST=1000     records of the concurrency-8 part
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Database, openPglite, openPostgres } from '../server/src/db/database.ts';
import { BENCH_PASSWORD, benchAppWithAdmin, benchProject, runClientProcess } from './support.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 50);
const INGEST = Number(process.env.SOAK_INGEST ?? 1000);
const MB = 1024 * 1024;

/** One line of the client's output per request: when it started (s since the client began), ms, status. */
interface Sample {
  t: number;
  ms: number;
  status: number;
}

async function open(): Promise<{ db: Database; drop: () => Promise<void>; engine: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-soak-pglite-'));
    const db = await openPglite({ dataDir: dir });
    return { db, engine: 'pglite', drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `soak_${crypto.randomBytes(4).toString('hex')}`;
  const admin = openPostgres({ connectionString: url });
  await admin.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await admin.query(`CREATE SCHEMA ${schema}`);
  const fsync = (await admin.query<{ fsync: string }>('SHOW fsync'))[0]?.fsync;
  if (fsync !== 'on')
    console.log(`warning: fsync is ${fsync} on this cluster: not PostgreSQL's default durability`);
  return {
    db: openPostgres({ connectionString: url, schema }),
    engine: 'postgres',
    drop: async () => {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** The client: its own process, building each body (unique photo) before its request goes. */
const CLIENT = String.raw`
import crypto from 'node:crypto';
const [origin, cookie, projeto, mode, amount, rate] = process.argv.slice(1);
function jpeg(size) {
  const head = Buffer.from([0xff,0xd8,0xff,0xe0,0,16,0x4a,0x46,0x49,0x46,0,1,1,0,0,1,0,1,0,0,0xff,0xc0,0,17,8,0,16,0,16,3,1,0x22,0,2,0x11,1,3,0x11,1,0xff,0xda,0,12,3,1,0,2,0x11,3,0x11,0,0x3f,0]);
  const data = crypto.randomBytes(size - head.length - 2).map((b) => (b === 0xff ? 0xfe : b));
  return Buffer.concat([head, data, Buffer.from([0xff, 0xd9])]);
}
function form() {
  const body = new FormData();
  const fields = { id: crypto.randomUUID(), projeto, coordenadas: JSON.stringify({ lat: -25.435, lng: -49.275 }),
    dataHora: String(Date.now()), tipoUnidade: 'SDU', tipoEdificacao: 'Residencial', tipoImovel: 'RESIDENCIAL',
    numero: '10', quantidade: '1' };
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append('fotos', new Blob([jpeg(500 * 1024)], { type: 'image/jpeg' }), '0.jpg');
  return body;
}
const started = performance.now();
async function send() {
  const t = (performance.now() - started) / 1000;
  const t0 = performance.now();
  let status = 0;
  try {
    const response = await fetch(origin + '/api/unidade', { method: 'POST', headers: { cookie }, body: form() });
    status = response.status;
    await response.arrayBuffer();
  } catch { status = -1; }
  process.stdout.write(JSON.stringify({ t, ms: performance.now() - t0, status }) + '\n');
}
if (mode === 'steady') {
  // One request every 1/rate s, whatever the previous ones are doing: a steady arrival rate, as phones sync.
  const total = Number(amount) * Number(rate);
  const pending = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / Number(rate);
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send());
  }
  await Promise.all(pending);
} else {
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => { while (next < Number(amount)) { next++; await send(); } }));
  process.stdout.write(JSON.stringify({ total: (performance.now() - started) / 1000 }) + '\n');
}
`;

async function client(args: string[]): Promise<{ samples: Sample[]; total?: number }> {
  const lines = (await runClientProcess(CLIENT, args))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Sample & { total?: number });
  const total = lines.find((line) => line.total !== undefined)?.total;
  return { samples: lines.filter((line) => line.total === undefined), ...(total ? { total } : {}) };
}

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)] ?? 0;
};

const { db, drop, engine } = await open();
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-soak-fotos-'));
try {
  const { app, login } = await benchAppWithAdmin(db, blobDir, 'soak');
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { cookie, projeto } = await benchProject(origin, login, BENCH_PASSWORD, 'Soak');

  console.log(`soak on ${engine}: ${RATE} records/s with a unique 500 KB photo each, for ${SECONDS} s`);
  const rss: { t: number; mb: number }[] = [];
  const t0 = performance.now();
  const sampler = setInterval(
    () => rss.push({ t: (performance.now() - t0) / 1000, mb: process.memoryUsage().rss / MB }),
    1000,
  );
  const steady = await client([origin, cookie, projeto, 'steady', String(SECONDS), String(RATE)]);
  clearInterval(sampler);
  const window = Math.min(60, SECONDS / 4);
  const first = steady.samples.filter((sample) => sample.t < window);
  const last = steady.samples.filter((sample) => sample.t >= SECONDS - window);
  const errors = steady.samples.filter((sample) => sample.status !== 201).length;
  // RSS after the warm-up (the first window) against the last window's: growth, not the start-up's allocations.
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const rssStart = mean(
    rss.filter((point) => point.t >= window && point.t < 2 * window).map((point) => point.mb),
  );
  const rssEnd = mean(rss.filter((point) => point.t >= SECONDS - window).map((point) => point.mb));
  const [stored] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM registros WHERE fluxo = 'hc'",
  );

  const ingest = await client([origin, cookie, projeto, 'burst', String(INGEST), '0']);
  const ingestErrors = ingest.samples.filter((sample) => sample.status !== 201).length;
  app.server.closeAllConnections();
  await app.close();

  console.table([
    {
      part: `steady ${RATE}/s, ${SECONDS} s`,
      requests: steady.samples.length,
      errors,
      'p95 ms (first window)': Math.round(p95(first.map((sample) => sample.ms))),
      'p95 ms (last window)': Math.round(p95(last.map((sample) => sample.ms))),
      'RSS MB (after warm-up)': Math.round(rssStart),
      'RSS MB (end)': Math.round(rssEnd),
    },
    {
      part: 'ingest, concurrency 8',
      requests: ingest.samples.length,
      errors: ingestErrors,
      'records/s': Math.round(INGEST / (ingest.total ?? Number.NaN)),
      'p95 ms': Math.round(p95(ingest.samples.map((sample) => sample.ms))),
    },
  ]);
  console.log(
    `soak ${engine}: ${steady.samples.length} uploads (${stored?.n ?? 0} stored), ${errors} errors; p95 ${Math.round(p95(first.map((s) => s.ms)))} → ${Math.round(p95(last.map((s) => s.ms)))} ms; RSS ${Math.round(rssStart)} → ${Math.round(rssEnd)} MB (${window} s windows); ingest c=8 ${Math.round(INGEST / (ingest.total ?? Number.NaN))} records/s, ${ingestErrors} errors`,
  );
  if (errors > 0 || ingestErrors > 0 || stored?.n !== steady.samples.length) process.exitCode = 1;
} finally {
  await db.close();
  await drop();
  fs.rmSync(blobDir, { recursive: true, force: true });
}
