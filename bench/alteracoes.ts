// The change feed as an external system meets it (issue 27): the app listens on a real port in this process and a
// separate client process walks GET /api/alteracoes from the start in pages of 1,000, following `proximo` until
// `fim`, checking every record arrives once and the cursors only go forward, while this process samples its own
// RSS every 50 ms. The records are seeded with set-based SQL on PostgreSQL (the trigger of migration 0015 writes
// their changes as an upload's would), which is not what is measured.
//   BENCH_ALTERACOES_ROWS=1000000   records (DATABASE_URL required; a database of its own, `novus_bench_alteracoes`,
//                                   created on that cluster and dropped at the end)
//   BENCH_ALTERACOES_LIMITE=1000    the page size
//   BENCH_ALTERACOES_KEEP=1         keeps the database afterwards, to look at plans with psql
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { type Database, openPostgres } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { insertUser } from '../server/src/modules/usuarios/queries.ts';
import { buildBenchApp, runClientProcess } from './support.ts';

const ROWS = Number((process.env.BENCH_ALTERACOES_ROWS ?? '1000000').replaceAll('_', ''));
const LIMITE = Number(process.env.BENCH_ALTERACOES_LIMITE ?? '1000');
const PASSWORD = 'bench-senha-1';
const MB = 1024 * 1024;
const NAME = 'novus_bench_alteracoes';

if (!Number.isInteger(ROWS) || ROWS <= 0) throw new Error(`BENCH_ALTERACOES_ROWS: ${ROWS}`);
if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: the feed bench runs on PostgreSQL only.');
  process.exit(0);
}

interface Walk {
  status: number;
  entries: number;
  /** Distinct record ids among them: equal to `entries` when each record came once. */
  distinct: number;
  /** Every entry's cursor after the one before it. */
  ordered: boolean;
  pages: number;
  bytes: number;
  totalMs: number;
  firstPageMs: number;
  /** Page latencies, milliseconds. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

// The client: a separate Node process, plain JavaScript so nothing but fetch loads. It follows the cursor from
// the start, as a system reading the feed for the first time does.
const CLIENT = String.raw`
const [origin, projeto, cookie, limite] = process.argv.slice(-4);
const seen = new Set();
const times = [];
const r = { status: 200, entries: 0, distinct: 0, ordered: true, pages: 0, bytes: 0, totalMs: 0, firstPageMs: 0 };
const idOf = (cursor) => BigInt(Buffer.from(cursor, 'base64url').toString());
let desde = '';
let last = -1n;
const t0 = performance.now();
for (;;) {
  const t = performance.now();
  const response = await fetch(origin + '/api/alteracoes?projeto=' + projeto + '&limite=' + limite +
    (desde ? '&desde=' + desde : ''), { headers: { cookie } });
  const text = await response.text();
  times.push(performance.now() - t);
  if (r.pages === 0) r.firstPageMs = performance.now() - t0;
  r.pages++;
  r.bytes += Buffer.byteLength(text);
  if (response.status !== 200) { r.status = response.status; console.error(text.slice(0, 500)); break; }
  const page = JSON.parse(text);
  for (const entry of page.alteracoes) {
    r.entries++;
    seen.add(entry.registro._id);
    const id = idOf(entry.cursor);
    if (id <= last) r.ordered = false;
    last = id;
  }
  desde = page.proximo;
  if (page.fim) break;
}
r.totalMs = performance.now() - t0;
r.distinct = seen.size;
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
Object.assign(r, { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: times[times.length - 1] });
process.stdout.write(JSON.stringify(r));
`;

/** Peak RSS of this process (the server) while fn runs: 50 ms samples, and the kernel's high-water mark. */
async function withRss<T>(fn: () => Promise<T>) {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let atPeak = before;
  const sample = () => {
    const usage = process.memoryUsage();
    if (usage.rss > atPeak.rss) atPeak = usage;
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await fn();
    sample();
    return { value, before, atPeak };
  } finally {
    clearInterval(timer);
  }
}

async function fixture(db: Database) {
  const suffix = crypto.randomBytes(3).toString('hex');
  const [cliente] = await db.query<{ id: string }>('INSERT INTO clientes (nome) VALUES ($1) RETURNING id', [
    `Companhia Paranaense de Energia ${suffix}`,
  ]);
  if (!cliente) throw new Error('no cliente');
  const [projeto] = await db.query<{ id: string }>(
    `INSERT INTO projetos (nome, cliente, fluxos, fuso) VALUES ($1, $2, '{hc}', 22) RETURNING id`,
    [`Curitiba Alterações ${suffix}`, cliente.id],
  );
  if (!projeto) throw new Error('no projeto');
  // The reader is the client's supervisor (an externo reads the same way, on an Interpres project).
  const login = `supervisor-${suffix}`;
  await insertUser(db, {
    login,
    firstName: 'Supervisora',
    lastName: 'Bench',
    passwordHash: await hashPassword(PASSWORD),
    roles: ['supervisor'],
    cliente: cliente.id,
  });
  const tecnicos: string[] = [];
  for (const [index, nome] of ['João', 'Maria', 'José', 'Ana'].entries()) {
    const user = await insertUser(db, {
      login: `tecnico-${index}-${suffix}`,
      firstName: nome,
      lastName: 'Bench',
      passwordHash: 'x',
      roles: ['tecnico'],
      cliente: cliente.id,
    });
    tecnicos.push(user.id);
  }
  return { projeto: projeto.id, login, tecnicos };
}

/** Units 1..count in batches of 100,000 (one transaction each), as bench/export.ts seeds them. */
async function seed(db: Database, f: Awaited<ReturnType<typeof fixture>>, count: number) {
  const BATCH = 100_000;
  for (let start = 1; start <= count; start += BATCH) {
    const end = Math.min(count, start + BATCH - 1);
    await db.query(
      `INSERT INTO registros (id, fluxo, projeto, tecnico, lat, lng, geom, data_hora, sincronizado_em, coletado,
         adicionado_app, coleta, dados)
       SELECT id, 'hc', $1::uuid, ($4::uuid[])[1 + i % cardinality($4::uuid[])], lat, lng,
         ST_SetSRID(ST_MakePoint(lng, lat), 4326), t, t + interval '20 minutes', true, true, id,
         jsonb_build_object(
           'tipoUnidade', (ARRAY['SDU','MDU','VAZIO','FUNDOS'])[1 + i % 4],
           'tipoEdificacao', (ARRAY['Residencial','Comercial','Especial','Vazio','Fundos'])[1 + i % 5],
           'tipoImovel', (ARRAY['RESIDENCIAL','comércio em geral','PENSAO','escritório de serviços'])[1 + i % 4],
           'numero', (1 + i % 4000)::text,
           'complementoNumero', CASE WHEN i % 7 = 0 THEN 'A' ELSE '' END,
           'complemento1', CASE WHEN i % 3 = 0 THEN 'Apto ' || (i % 300) ELSE '' END,
           'quantidade', (1 + i % 3)::text,
           'precisao', 4,
           'observacao', 'Medição próxima à calçada, acesso pela rua lateral nº ' || i)
       FROM (
         SELECT i, gen_random_uuid() AS id, -25.43 + (random() - 0.5) * 0.12 AS lat,
           -49.27 + (random() - 0.5) * 0.12 AS lng,
           timestamptz '2026-09-01 11:00Z' + (i * 4 + random() * 3) * interval '1 second' AS t
         FROM generate_series($2::int, $3::int) i
       ) s`,
      [f.projeto, start, end, f.tecnicos],
    );
  }
  await db.query('VACUUM ANALYZE registros');
  await db.query('VACUUM ANALYZE alteracoes');
}

const startedAt = new Date().toISOString();
const admin = openPostgres({ connectionString: process.env.DATABASE_URL });
await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${NAME}`);
const url = new URL(process.env.DATABASE_URL);
url.pathname = `/${NAME}`;
const db = openPostgres({ connectionString: url.toString() });
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-bench-alteracoes-'));
try {
  await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
  const postgres = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0]?.v;
  await migrate(db);
  const f = await fixture(db);
  const t0 = performance.now();
  await seed(db, f, ROWS);
  const seedS = (performance.now() - t0) / 1000;
  const [{ n: changes } = { n: 0 }] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM alteracoes WHERE projeto = $1',
    [f.projeto],
  );
  console.log(`${ROWS} units seeded in ${seedS.toFixed(1)} s (the trigger wrote ${changes} changes)`);

  const app = await buildBenchApp(db, blobDir);
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: f.login, password: PASSWORD }),
    });
    const token = login.headers
      .getSetCookie()
      .map((cookie) => /^auth_token=([^;]+)/.exec(cookie)?.[1])
      .find(Boolean);
    if (login.status !== 200 || !token) throw new Error(`login ${login.status}`);
    const loadBefore = os.loadavg().map((n) => Number(n.toFixed(2)));
    const { value, before, atPeak } = await withRss(async () =>
      runClientProcess(CLIENT, [origin, f.projeto, `auth_token=${token}`, String(LIMITE)]),
    );
    // What stays once the garbage of the walk is collected: a leak would show here, the heap's slack would not.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const afterGc = process.memoryUsage();
    const walk = JSON.parse(value) as Walk;
    if (walk.status !== 200) throw new Error(`HTTP ${walk.status}`);
    if (walk.entries !== ROWS || walk.distinct !== ROWS || !walk.ordered) {
      throw new Error(`walked ${walk.entries} entries, ${walk.distinct} records, ordered ${walk.ordered}`);
    }
    const result = {
      rows: ROWS,
      limite: LIMITE,
      seedS: Number(seedS.toFixed(1)),
      recordsPerSecond: Math.round(ROWS / (walk.totalMs / 1000)),
      totalS: Number((walk.totalMs / 1000).toFixed(1)),
      pages: walk.pages,
      MB: Number((walk.bytes / MB).toFixed(0)),
      firstPageMs: Math.round(walk.firstPageMs),
      pageP50Ms: Math.round(walk.p50Ms),
      pageP99Ms: Math.round(walk.p99Ms),
      pageMaxMs: Math.round(walk.maxMs),
      rssBaselineMB: Math.round(before.rss / MB),
      rssGrowthMB: Number(((atPeak.rss - before.rss) / MB).toFixed(1)),
      heapTotalGrowthMB: Number(((atPeak.heapTotal - before.heapTotal) / MB).toFixed(1)),
      heapUsedAfterGcGrowthMB: gc ? Number(((afterGc.heapUsed - before.heapUsed) / MB).toFixed(1)) : null,
      rssAfterGcGrowthMB: gc ? Number(((afterGc.rss - before.rss) / MB).toFixed(1)) : null,
      loadAverage: { before: loadBefore, after: os.loadavg().map((n) => Number(n.toFixed(2))) },
    };
    const { loadAverage, ...shown } = result;
    console.table([shown]);
    console.log(`load average ${loadAverage.before.join(' ')} → ${loadAverage.after.join(' ')}`);
    fs.mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    fs.writeFileSync(
      new URL('./results/alteracoes.json', import.meta.url),
      `${JSON.stringify(
        {
          startedAt,
          machine: { cpus: os.cpus().length, totalMemMB: Math.round(os.totalmem() / MB) },
          node: process.version,
          postgres,
          result,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await app.close();
  }
} finally {
  await db.close();
  // The pool's end() resolves before its sockets are closed: wait for them before the drop.
  for (let i = 0; i < 100; i++) {
    const [open] = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${NAME}'`,
    );
    if (!open?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!process.env.BENCH_ALTERACOES_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
  await admin.close();
  fs.rmSync(blobDir, { recursive: true, force: true });
}
