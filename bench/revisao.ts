// The review list of issue 24 as a reviewer meets it: a project of 100,000 field records (set-based SQL seeds them
// with flags and review states in realistic shares, then VACUUM ANALYZE), the app listening on a real port in this
// process, and a separate client process asking for the first page (50 records, with the counts per flag and
// state) unfiltered, by flag, by state and by both, 15 times each. Prints the median and p95, and the plans
// (EXPLAIN ANALYZE) of the page's query for a flag and for a state: the figure of record is the server's
// (issue 24: under 300 ms for the first page).
//   BENCH_REVISAO_ROWS=100000   records of the project (PostgreSQL of DATABASE_URL, a database of its own)
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { type Database, openPostgres } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { flagsSql, qualidadeParams } from '../server/src/modules/revisao/flags.ts';
import { filtroSql } from '../server/src/modules/revisao/queries.ts';
import { insertUser } from '../server/src/modules/usuarios/queries.ts';
import { buildBenchApp, runClientProcess } from './support.ts';

const ROWS = Number(process.env.BENCH_REVISAO_ROWS ?? 100_000);
const PASSWORD = 'bench-senha-1';
const TARGET_MS = 300;

if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: the review bench runs on PostgreSQL only.');
  process.exit(0);
}

/** The client: each URL asked `times` times in turn, one at a time; answers ms per URL. */
const CLIENT = String.raw`
import http from 'node:http';
const [origin, cookie, urls, times] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true });
const get = (url) => new Promise((resolve, reject) => {
  const t0 = performance.now();
  http.get(origin + url, { agent, headers: { cookie } }, (res) => {
    let n = 0;
    res.on('data', (chunk) => (n += chunk.length));
    res.on('end', () => res.statusCode === 200 ? resolve({ ms: performance.now() - t0, n }) : reject(new Error(url + ' ' + res.statusCode)));
  }).on('error', reject);
});
const out = {};
for (const url of JSON.parse(urls)) out[url] = [];
for (let i = 0; i < Number(times); i++) for (const url of JSON.parse(urls)) out[url].push(await get(url));
console.log(JSON.stringify(out));
`;

async function seed(db: Database): Promise<{ projeto: string; login: string }> {
  const suffix = crypto.randomBytes(3).toString('hex');
  const [cliente] = await db.query<{ id: string }>('INSERT INTO clientes (nome) VALUES ($1) RETURNING id', [
    `Revisão ${suffix}`,
  ]);
  const [projeto] = await db.query<{ id: string }>(
    `INSERT INTO projetos (nome, cliente, fluxos, fuso) VALUES ($1, $2, '{hc,poste}', 22) RETURNING id`,
    [`Revisão ${suffix}`, cliente?.id],
  );
  if (!cliente || !projeto) throw new Error('no fixture');
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
  for (let i = 0; i < 8; i++) {
    const user = await insertUser(db, {
      login: `tecnico-${i}-${suffix}`,
      firstName: `Técnico ${i}`,
      lastName: 'Bench',
      passwordHash: 'x',
      roles: ['tecnico'],
      cliente: cliente.id,
    });
    tecnicos.push(user.id);
  }
  // Shares: 8 % poor accuracy, 2 % none, 3 % near duplicates, 1 % outside the zones, 4 % without photos; 70 %
  // pendente, 25 % aprovado, 5 % reprovado. Units and poles, 4 s apart, around Curitiba.
  await db.query(
    `INSERT INTO registros (id, fluxo, projeto, tecnico, lat, lng, geom, data_hora, sincronizado_em, coletado, coleta,
       dados, flags, revisao)
     SELECT id, CASE WHEN i % 3 = 0 THEN 'poste' ELSE 'hc' END, $1::uuid, ($3::uuid[])[1 + i % 8], lat, lng,
       ST_SetSRID(ST_MakePoint(lng, lat), 4326), t, t + interval '20 minutes', true, id,
       jsonb_build_object('numero', (1 + i % 4000)::text, 'tipoUnidade', 'SDU', 'precisao', 3 + i % 13),
       (SELECT COALESCE(jsonb_agg(f), '[]') FROM (
          SELECT jsonb_build_object('codigo', 'precisao_baixa', 'valor', 20 + i % 30) AS f WHERE i % 100 < 8
          UNION ALL SELECT jsonb_build_object('codigo', 'sem_precisao', 'valor', NULL) WHERE i % 100 BETWEEN 8 AND 9
          UNION ALL SELECT jsonb_build_object('codigo', 'duplicata', 'valor', 1.2) WHERE i % 100 BETWEEN 10 AND 12
          UNION ALL SELECT jsonb_build_object('codigo', 'fora_da_zona', 'valor', NULL) WHERE i % 100 = 13
          UNION ALL SELECT jsonb_build_object('codigo', 'poucas_fotos', 'valor', 0) WHERE i % 25 = 0) x),
       CASE WHEN i % 20 = 0 THEN 'reprovado' WHEN i % 4 = 1 THEN 'aprovado' ELSE 'pendente' END
     FROM (
       SELECT i, gen_random_uuid() AS id, -25.43 + (random() - 0.5) * 0.12 AS lat, -49.27 + (random() - 0.5) * 0.12 AS lng,
         timestamptz '2026-09-01 11:00Z' + (i * 4) * interval '1 second' AS t
       FROM generate_series(1, $2::int) i
     ) s`,
    [projeto.id, ROWS, tecnicos],
  );
  await db.query('VACUUM ANALYZE registros');
  return { projeto: projeto.id, login };
}

const NAME = 'novus_bench_revisao';
const admin = openPostgres({ connectionString: process.env.DATABASE_URL });
await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${NAME}`);
const url = new URL(process.env.DATABASE_URL);
url.pathname = `/${NAME}`;
const db = openPostgres({ connectionString: url.toString() });
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-bench-revisao-'));
try {
  await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await migrate(db);
  const t0 = performance.now();
  const { projeto, login } = await seed(db);
  console.log(`${ROWS} records seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // The plans of the page's query, as the route builds it (filtroSql).
  for (const filtro of [
    { projeto },
    { projeto, flag: 'fora_da_zona' as const },
    { projeto, estado: 'reprovado' as const },
  ]) {
    const { where, params } = filtroSql(filtro);
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS OFF) SELECT r.id FROM registros r WHERE ${where}
       ORDER BY r.data_hora DESC, r.id DESC LIMIT 50`,
      params,
    );
    console.log(`\nEXPLAIN ANALYZE (${JSON.stringify({ ...filtro, projeto: '…' })}):`);
    for (const line of plan) console.log(`  ${line['QUERY PLAN']}`);
  }

  // The flags of one more upload among them (issue 24): each rule must stay an index step, never a scan.
  const [tecnico] = await db.query<{ id: string }>(
    "SELECT id FROM usuarios WHERE 'tecnico' = ANY(roles) ORDER BY login LIMIT 1",
  );
  const flags = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT ${flagsSql({ id: '$1', fluxo: '$2', projeto: '$3', tecnico: '$4', lat: '$5', lng: '$6', dataHora: '$7', first: 8, exif: false })}`,
    [
      crypto.randomUUID(),
      'hc',
      projeto,
      tecnico?.id,
      -25.43,
      -49.27,
      Date.parse('2026-09-02T12:00:00Z'),
      ...qualidadeParams({ precisao: 4, fotos: 1, exif: [], zonas: null }),
    ],
  );
  console.log('\nEXPLAIN ANALYZE (the flags of one more upload):');
  for (const line of flags) console.log(`  ${line['QUERY PLAN']}`);

  const app = await buildBenchApp(db, blobDir);
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const answer = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login, password: PASSWORD }),
    });
    const token = answer.headers
      .getSetCookie()
      .map((cookie) => /^auth_token=([^;]+)/.exec(cookie)?.[1])
      .find(Boolean);
    if (!token) throw new Error(`login ${answer.status}`);
    const base = `/api/revisao?projeto=${projeto}`;
    const urls = [
      base,
      `${base}&flag=fora_da_zona`,
      `${base}&flag=qualquer`,
      `${base}&estado=reprovado`,
      `${base}&estado=pendente&flag=precisao_baixa`,
      `${base}&fluxo=poste&pagina=40`,
    ];
    const out = JSON.parse(
      await runClientProcess(CLIENT, [origin, `auth_token=${token}`, JSON.stringify(urls), '15']),
    ) as Record<string, { ms: number; n: number }[]>;
    const rows = Object.entries(out).map(([asked, runs]) => {
      const ms = runs.map((run) => run.ms).sort((a, b) => a - b);
      const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
      return {
        query: asked.replace(base, '') || '(no filter)',
        'median ms': Math.round(at(0.5)),
        'p95 ms': Math.round(at(0.95)),
        KB: Math.round((runs[0]?.n ?? 0) / 1024),
        [`< ${TARGET_MS} ms`]: at(0.95) < TARGET_MS ? 'yes' : 'no',
      };
    });
    console.table(rows);
    console.log(
      `revisao: ${ROWS} records, first page p95 ${rows.map((r) => `${r.query} ${r['p95 ms']} ms`).join(', ')}; ` +
        `load ${os
          .loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await app.close();
  }
} finally {
  await db.close();
  fs.rmSync(blobDir, { recursive: true, force: true });
  for (let i = 0; i < 100; i++) {
    const [open] = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${NAME}'`,
    );
    if (!open?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
  await admin.close();
}
