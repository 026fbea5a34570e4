// Benchmarks of the server through app.inject(): throughput, p95 and peak memory, on PGlite and, when
// DATABASE_URL is set, on PostgreSQL in the same run so the two compare as a ratio. Bounded in count.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, openPglite, openPostgres } from '../server/src/db/database.ts';
import { fakeJpeg, multipart } from '../server/test/support/multipart.ts';
import { BENCH_PASSWORD, benchAppWithAdmin } from './support.ts';

interface Result {
  engine: string;
  scenario: string;
  count: number;
  perSecond: number;
  p95ms: number;
}

async function measure(count: number, concurrency: number, task: (i: number) => Promise<void>) {
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        durations.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return { perSecond: count / seconds, p95ms: durations[Math.floor(durations.length * 0.95)] ?? 0 };
}

async function run(engine: string, db: Database): Promise<Result[]> {
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-bench-fotos-'));
  const { app, login } = await benchAppWithAdmin(db, blobDir, 'bench');
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { login, password: BENCH_PASSWORD },
  });
  const cookie = `auth_token=${res.cookies.find((c) => c.name === 'auth_token')?.value ?? ''}`;
  const prefix = crypto.randomBytes(4).toString('hex');
  const results: Result[] = [];

  const create = await measure(2000, 8, async (i) => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie },
      payload: { nome: `${prefix}-${i}` },
    });
    if (r.statusCode !== 201) throw new Error(`create ${r.statusCode}`);
  });
  results.push({ engine, scenario: 'POST /api/cliente', count: 2000, ...create });

  const list = await measure(200, 8, async () => {
    const r = await app.inject({ method: 'GET', url: '/api/cliente', headers: { cookie } });
    if (r.statusCode !== 200) throw new Error(`list ${r.statusCode}`);
  });
  results.push({ engine, scenario: 'GET /api/cliente (2000 rows)', count: 200, ...list });

  const me = await measure(5000, 8, async () => {
    const r = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    if (r.statusCode !== 200) throw new Error(`me ${r.statusCode}`);
  });
  results.push({ engine, scenario: 'GET /api/auth/me (token check)', count: 5000, ...me });

  // Ingest: a unit with a unique 500 KB photo each, as DESIGN.md's bar (>= 300 records/s) measures it.
  const kml = fs.readFileSync(new URL('../docs/samples/zoneamento-curitiba.kml', import.meta.url), 'utf8');
  const cliente = (
    await app.inject({
      method: 'POST',
      url: '/api/cliente',
      headers: { cookie },
      payload: { nome: `${prefix}-campo` },
    })
  ).json()._id;
  const projeto = (
    await app.inject({
      method: 'POST',
      url: '/api/projeto',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        nome: `${prefix}-campo`,
        cliente,
        fuso: '22',
        fluxos: 'hc',
        kml,
      }).toString(),
    })
  ).json()._id;
  const INGEST = 1000;
  const bodies = Array.from({ length: INGEST }, () =>
    multipart(
      {
        id: crypto.randomUUID(),
        projeto,
        coordenadas: JSON.stringify({ lat: -25.435, lng: -49.275 }),
        dataHora: String(Date.now()),
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero: '10',
        quantidade: '1',
      },
      [{ field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: fakeJpeg(500 * 1024) }],
    ),
  );
  const ingest = await measure(INGEST, 8, async (i) => {
    const body = bodies[i];
    if (!body) return;
    const r = await app.inject({
      method: 'POST',
      url: '/api/unidade',
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    if (r.statusCode !== 201) throw new Error(`ingest ${r.statusCode} ${r.body}`);
  });
  results.push({ engine, scenario: 'POST /api/unidade + 500 KB photo', count: INGEST, ...ingest });

  await app.close();
  await db.close();
  fs.rmSync(blobDir, { recursive: true, force: true });
  return results;
}

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const results = await run('pglite', await openPglite({}));
if (process.env.DATABASE_URL) {
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = openPostgres({ connectionString: process.env.DATABASE_URL });
  await admin.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await admin.query(`CREATE SCHEMA ${schema}`);
  results.push(
    ...(await run('postgres', openPostgres({ connectionString: process.env.DATABASE_URL, schema }))),
  );
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.close();
}
clearInterval(sampler);
console.table(
  results.map((r) => ({ ...r, perSecond: Math.round(r.perSecond), p95ms: Number(r.p95ms.toFixed(1)) })),
);
const pgliteCreate = results.find((r) => r.engine === 'pglite' && r.scenario.startsWith('POST'));
const pgCreate = results.find((r) => r.engine === 'postgres' && r.scenario.startsWith('POST'));
if (pgliteCreate && pgCreate) {
  console.log(
    `ratio postgres/pglite for POST /api/cliente: ${(pgCreate.perSecond / pgliteCreate.perSecond).toFixed(2)}`,
  );
}
console.log(`peak RSS: ${Math.round(peakRss / 1024 / 1024)} MiB`);
