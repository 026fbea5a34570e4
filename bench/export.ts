// Exports as a user meets them (DESIGN.md 'Reading a lot'): the app listens on a real port in this process and a
// separate client process downloads each file over HTTP, timing the first byte, the first row and the whole file
// and counting the rows it received, while this process samples its own RSS every 50 ms. Unit records (and BDGD
// records for the zip) are seeded with set-based SQL, which is not what is measured.
//   BENCH_EXPORT_ROWS=100000,1000000   sizes on PostgreSQL (only when DATABASE_URL is set; a database of its own,
//                                      `novus_bench`, created on that cluster and dropped at the end)
//   BENCH_EXPORT_PGLITE_ROWS=100000    sizes on PGlite (a temporary data directory); `0` skips an engine
//   BENCH_EXPORT_KEEP=1                keeps `novus_bench` afterwards, to look at plans with psql
//   BENCH_EXPORT_REUSE=1               downloads from the `novus_bench` a run kept (seeded to the largest size asked),
//                                      without seeding it again (minutes at 1 M): to compare builds in the same hour
//   BENCH_EXPORT_FORMATS=csv,gpkg,xlsx only these files (csv, kml, zip, gpkg, xlsx; default all): the GeoPackage and
//                                      the XLSX (issue 27) hold both flows, 2 × the size
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { type Database, openPglite, openPostgres } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { insertUser } from '../server/src/modules/usuarios/queries.ts';
import sqlite3 from 'node-sqlite3-wasm';
import { buildBenchApp, runClientProcess } from './support.ts';

/** DESIGN.md 'Performance by design': ODK Central's CSV export of 100 k rows on a 2-core machine. */
const PEER_ROWS_PER_SECOND = 9_460;
const TARGET_ROWS_PER_SECOND = 200_000;
/** Judged on the first row: the first byte of a CSV is its BOM, sent before the query runs. */
const TARGET_FIRST_BYTE_S = 0.5;
const TARGET_RSS_GROWTH_MB = 100;
const PASSWORD = 'bench-senha-1';
const MB = 1024 * 1024;

function sizes(value: string | undefined, fallback: number[]): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  if (value.trim() === '0') return [];
  const list = value.split(',').map((item) => Number(item.trim().replaceAll('_', '')));
  if (list.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`Invalid sizes: ${value}`);
  return [...new Set(list)].sort((a, b) => a - b);
}

const postgresSizes = sizes(process.env.BENCH_EXPORT_ROWS, [100_000, 1_000_000]);
const pgliteSizes = sizes(process.env.BENCH_EXPORT_PGLITE_ROWS, [100_000]);

type Format = 'csv' | 'kml' | 'zip' | 'gpkg' | 'xlsx';

interface Download {
  status: number;
  /** Milliseconds from sending the request: response headers, first body byte, first whole row, last byte. */
  headers: number;
  firstByte: number;
  firstRow: number;
  total: number;
  bytes: number;
  /** Rows the client counted: CSV lines after the header, KML placemarks; -1 for the zips and the GeoPackage. */
  rows: number;
  /** The zip (and the XLSX, a zip) ended with its end-of-central-directory record. */
  zipComplete: boolean;
  /** CPU time of the client process, start-up included. */
  cpuMs: number;
}

interface Result {
  engine: 'postgres' | 'pglite';
  rows: number;
  format: Format;
  what: string;
  rowsPerSecond: number;
  firstByteS: number;
  firstRowS: number;
  totalS: number;
  bytes: number;
  rssBaselineMB: number;
  /** Peak minus baseline, from the 50 ms samples of process.memoryUsage().rss. */
  rssGrowthMB: number;
  /** The same from the kernel's high-water mark (VmHWM, reset before the download), when readable. */
  rssGrowthHwmMB: number | null;
  /** At the sample of the peak: how much of the growth is V8's heap, and memory outside it (Buffers). */
  heapTotalGrowthMB: number;
  externalGrowthMB: number;
  ratioToPeer: number;
  loadAverage: number[];
  /** CPU seconds during the download: the server (this process), the client, PostgreSQL's processes (when local). */
  cpuS: { server: number; client: number; postgres: number | null };
}

/**
 * CPU seconds of this machine's PostgreSQL processes so far (utime + stime of every `postgres` in /proc), or null
 * where /proc is not readable. Its pool's connections live across a download, so the difference is their work.
 */
function postgresCpuSeconds(): number | null {
  try {
    const ticks = 100; // USER_HZ on Linux
    let total = 0;
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    }
    return total;
  } catch {
    return null;
  }
}

// The client: a separate Node process, plain JavaScript so nothing but node:http loads. It counts rows as the
// bytes arrive (a CSV line per record, observations hold no line breaks; a </Placemark> per KML record); a
// GeoPackage it writes to the file named after the kind, which the bench then counts with SQLite.
const CLIENT = String.raw`
import fs from 'node:fs';
import http from 'node:http';
const [url, cookie, kind, file] = process.argv.slice(-4);
const saved = file === '-' ? null : fs.createWriteStream(file);
const needle = Buffer.from('</Placemark>');
const r = { status: 0, headers: 0, firstByte: 0, firstRow: 0, total: 0, bytes: 0, rows: 0, zipComplete: false, cpuMs: 0 };
let newlines = 0;
let tail = Buffer.alloc(0);
const t0 = performance.now();
const request = http.get(url, { agent: false, headers: { cookie, 'accept-encoding': 'identity' } }, (res) => {
  r.status = res.statusCode ?? 0;
  r.headers = performance.now() - t0;
  res.on('data', (chunk) => {
    const now = performance.now() - t0;
    if (r.bytes === 0) r.firstByte = now;
    r.bytes += chunk.length;
    saved?.write(chunk);
    if (kind === 'csv') {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
        newlines++;
        if (newlines === 2) r.firstRow = now;
      }
    } else if (kind === 'kml') {
      const before = r.rows;
      if (Buffer.concat([tail, chunk.subarray(0, needle.length - 1)]).includes(needle)) r.rows++;
      for (let i = chunk.indexOf(needle); i !== -1; i = chunk.indexOf(needle, i + needle.length)) r.rows++;
      if (before === 0 && r.rows > 0) r.firstRow = now;
      // The last bytes of all received, not of this chunk alone: a chunk may be shorter than the needle.
      tail = Buffer.concat([tail, chunk]).subarray(-(needle.length - 1));
    } else {
      if (r.firstRow === 0) r.firstRow = now;
      tail = Buffer.concat([tail, chunk]).subarray(-128);
    }
  });
  res.on('end', () => {
    r.total = performance.now() - t0;
    const cpu = process.cpuUsage();
    r.cpuMs = (cpu.user + cpu.system) / 1000;
    if (kind === 'csv') r.rows = newlines - 1;
    if (kind === 'zip' || kind === 'xlsx' || kind === 'gpkg') {
      r.rows = -1;
      r.zipComplete = tail.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    }
    if (saved) saved.end(() => process.stdout.write(JSON.stringify(r)));
    else process.stdout.write(JSON.stringify(r));
  });
});
request.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
`;

async function runClient(url: string, cookie: string, format: Format, file = '-'): Promise<Download> {
  return JSON.parse(await runClientProcess(CLIENT, [url, cookie, format, file])) as Download;
}

/** The features of every layer of a GeoPackage the client saved, counted by SQLite. */
function gpkgFeatures(file: string): number {
  const gpkg = new sqlite3.Database(file, { readOnly: true });
  try {
    let total = 0;
    for (const { table_name: table } of gpkg.all(
      "SELECT table_name FROM gpkg_contents WHERE data_type = 'features'",
    )) {
      const [row] = gpkg.all(`SELECT count(*) AS n FROM "${String(table).replaceAll('"', '""')}"`);
      total += Number(row?.n ?? 0);
    }
    return total;
  } finally {
    gpkg.close();
  }
}

/** Peak RSS of this process (the server) while fn runs: 50 ms samples, and the kernel's high-water mark. */
async function withRss<T>(fn: () => Promise<T>) {
  (globalThis as { gc?: () => void }).gc?.();
  const hwm = resetHighWaterMark();
  const before = process.memoryUsage();
  let atPeak = before;
  // The RSS alone is cheap to read; the heap's figures (a walk of its spaces) only at a new peak.
  const sample = () => {
    if (process.memoryUsage.rss() > atPeak.rss) atPeak = process.memoryUsage();
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await fn();
    sample();
    return { value, before, atPeak, hwm: hwm ? readHighWaterMark() : null };
  } finally {
    clearInterval(timer);
  }
}

function resetHighWaterMark(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function readHighWaterMark(): number | null {
  const found = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return found?.[1] ? Number(found[1]) * 1024 : null;
}

const TECNICOS = [
  ['João', 'Conceição'],
  ['Maria', 'Gonçalves'],
  ['José', 'Araújo'],
  ['Ana', 'Lúcia Simões'],
  ['Antônio', 'Magalhães'],
  ['Márcia', 'Brandão'],
  ['Sérgio', 'Assunção'],
  ['Cláudia', 'Fernandes'],
] as const;

interface Fixture {
  projeto: string;
  login: string;
  tecnicos: string[];
}

async function fixture(db: Database): Promise<Fixture> {
  const suffix = crypto.randomBytes(3).toString('hex');
  const [cliente] = await db.query<{ id: string }>('INSERT INTO clientes (nome) VALUES ($1) RETURNING id', [
    `Companhia Paranaense de Energia ${suffix}`,
  ]);
  if (!cliente) throw new Error('no cliente');
  const [projeto] = await db.query<{ id: string }>(
    `INSERT INTO projetos (nome, cliente, fluxos, fuso) VALUES ($1, $2, '{hc,bdgd}', 22) RETURNING id`,
    [`Curitiba Exportação ${suffix}`, cliente.id],
  );
  if (!projeto) throw new Error('no projeto');
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
  for (const [index, [firstName, lastName]] of TECNICOS.entries()) {
    const user = await insertUser(db, {
      login: `tecnico-${index}-${suffix}`,
      firstName,
      lastName,
      passwordHash: 'x',
      roles: ['tecnico'],
      cliente: cliente.id,
    });
    tecnicos.push(user.id);
  }
  return { projeto: projeto.id, login, tecnicos };
}

const REUSE = process.env.BENCH_EXPORT_REUSE === '1';

/** The project, supervisor and technicians of a database a run kept (BENCH_EXPORT_KEEP), and its records of each flow. */
async function keptFixture(db: Database): Promise<{ fixture: Fixture; count: number } | null> {
  const [projeto] = await db.query<{ id: string; login: string; count: number }>(
    `SELECT p.id, u.login, (SELECT count(*)::int FROM registros r WHERE r.projeto = p.id AND r.fluxo = 'hc') AS count
      FROM projetos p JOIN usuarios u ON u.cliente = p.cliente AND 'supervisor' = ANY(u.roles)
      WHERE p.nome LIKE 'Curitiba Exportação %' ORDER BY p.created_at DESC LIMIT 1`,
  );
  if (!projeto) return null;
  const tecnicos = await db.query<{ id: string }>(
    "SELECT u.id FROM usuarios u JOIN projetos p ON p.cliente = u.cliente WHERE p.id = $1 AND 'tecnico' = ANY(u.roles) ORDER BY u.login",
    [projeto.id],
  );
  console.log(`postgres: reusing the kept database, ${projeto.count} records of each flow`);
  return {
    fixture: { projeto: projeto.id, login: projeto.login, tecnicos: tecnicos.map((t) => t.id) },
    count: projeto.count,
  };
}

/**
 * Records from..to (1-based) of both flows, in batches: points around Curitiba (fuso 22) with jitter, about 4 s
 * apart in collection time (1 M records span ≈ 46 days), a technician each, unit fields with accents; every 10th
 * observation holds a `;` and quotes (quoted in the CSV). BDGD records carry what its zip exports. A record in
 * three has no photo, one one, one three (`fotos_slots`, what the CSV counts and the KML links; the photos
 * themselves are not stored: the photo zip is not measured here).
 */
async function seed(db: Database, f: Fixture, from: number, to: number) {
  const BATCH = 100_000;
  for (let start = from; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    const common = (fluxo: string, dados: string) => `
      INSERT INTO registros (id, fluxo, projeto, tecnico, lat, lng, geom, data_hora, sincronizado_em, coletado, coleta, dados,
        fotos_slots)
      SELECT id, '${fluxo}', $1::uuid, ($4::uuid[])[1 + i % cardinality($4::uuid[])], lat, lng,
        ST_SetSRID(ST_MakePoint(lng, lat), 4326), t, t + interval '20 minutes', true, id, ${dados},
        (CASE i % 3 WHEN 0 THEN '{}' WHEN 1 THEN '{0}' ELSE '{0,1,2}' END)::smallint[]
      FROM (
        SELECT i, gen_random_uuid() AS id, -25.43 + (random() - 0.5) * 0.12 AS lat, -49.27 + (random() - 0.5) * 0.12 AS lng,
          timestamptz '2026-09-01 11:00Z' + (i * 4 + random() * 3) * interval '1 second' AS t
        FROM generate_series($2::int, $3::int) i
      ) s`;
    await db.query(
      common(
        'hc',
        `jsonb_build_object(
          'tipoUnidade', (ARRAY['SDU','MDU','VAZIO','FUNDOS'])[1 + i % 4],
          'tipoEdificacao', (ARRAY['Residencial','Comercial','Especial','Vazio','Fundos'])[1 + i % 5],
          'tipoImovel', (ARRAY['RESIDENCIAL','comércio em geral','PENSAO','escritório de serviços'])[1 + i % 4],
          'numero', (1 + i % 4000)::text,
          'complementoNumero', CASE WHEN i % 7 = 0 THEN 'A' ELSE '' END,
          'complemento1', CASE WHEN i % 3 = 0 THEN 'Apto ' || (i % 300) ELSE '' END,
          'complemento2', '', 'complemento3', '',
          'quantidade', (1 + i % 3)::text,
          'nomeEdificio', CASE WHEN i % 4 = 1 THEN 'Edifício São João' ELSE '' END,
          'nomeBloco', CASE WHEN i % 4 = 1 THEN 'Bloco B' ELSE '' END,
          'totalAndares', CASE WHEN i % 4 = 1 THEN '12' ELSE '' END,
          'aptosPorAndar', CASE WHEN i % 4 = 1 THEN '4' ELSE '' END,
          'observacao', CASE WHEN i % 10 = 0 THEN 'Portão azul; cão bravo, "cuidado" nº ' || i
                             ELSE 'Medição próxima à calçada, acesso pela rua lateral nº ' || i END)`,
      ),
      [f.projeto, start, end, f.tecnicos],
    );
    await db.query(
      common(
        'bdgd',
        `jsonb_build_object(
          'sequencial', i,
          'ativo', (ARRAY['Poste','Medidor','Chave','Transformador'])[1 + i % 4],
          'idConcessionaria', 'COPEL-' || lpad(i::text, 8, '0'),
          'coordenadasAtualizadas', i % 5 = 0,
          'observacao', CASE WHEN i % 10 = 0 THEN 'Ativo não localizado; verificar com a concessionária' ELSE '' END)`,
      ),
      [f.projeto, start, end, f.tecnicos],
    );
  }
  // A table as it is after autovacuum: visibility and hint bits set, statistics current.
  await db.query('VACUUM ANALYZE registros');
}

/**
 * The files, each of `count` records but the GeoPackage and the XLSX, which hold both flows (the units' and the
 * BDGD's layer; their CSVs' sheets): 2 × count rows, and their rows/s count both.
 */
const FORMATS: { format: Format; what: string; path: (projeto: string) => string; flows: number }[] = [
  { format: 'csv', what: 'unidades.csv', path: (p) => `/api/extrator/${p}/unidades.csv`, flows: 1 },
  { format: 'kml', what: 'unidade kml', path: (p) => `/api/unidade/${p}/kml`, flows: 1 },
  { format: 'zip', what: 'bdgd zip (kml + csv)', path: (p) => `/api/bdgd/${p}/kml`, flows: 1 },
  {
    format: 'gpkg',
    what: 'registros.gpkg (hc + bdgd)',
    path: (p) => `/api/extrator/${p}/registros.gpkg`,
    flows: 2,
  },
  {
    format: 'xlsx',
    what: 'planilha.xlsx (hc + bdgd)',
    path: (p) => `/api/extrator/${p}/planilha.xlsx`,
    flows: 2,
  },
];

/** BENCH_EXPORT_FORMATS=csv,gpkg,xlsx: only some of the files. */
const chosenFormats = (process.env.BENCH_EXPORT_FORMATS ?? '').split(',').filter(Boolean);
const formats = FORMATS.filter(({ format }) => chosenFormats.length === 0 || chosenFormats.includes(format));

async function bench(engine: Result['engine'], db: Database, counts: number[]): Promise<Result[]> {
  await migrate(db);
  const kept = engine === 'postgres' && REUSE ? await keptFixture(db) : null;
  const f = kept?.fixture ?? (await fixture(db));
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-bench-export-fotos-'));
  const app = await buildBenchApp(db, blobDir);
  await app.listen({ port: 0, host: '127.0.0.1' });
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
  const cookie = `auth_token=${token}`;

  const results: Result[] = [];
  let seeded = kept?.count ?? 0;
  try {
    for (const count of counts) {
      if (count > seeded) {
        const t0 = performance.now();
        await seed(db, f, seeded + 1, count);
        seeded = count;
        console.log(
          `${engine}: ${count} unit + ${count} BDGD records seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
      } else if (count < seeded) {
        throw new Error(`${engine}: the kept database holds ${seeded} records of each flow, not ${count}`);
      }
      for (const { format, what, path: url, flows } of formats) {
        const loadAverage = os.loadavg().map((n) => Number(n.toFixed(2)));
        const rows = count * flows;
        const saved = format === 'gpkg' ? path.join(blobDir, 'bench.gpkg') : '-';
        const cpuBefore = process.cpuUsage();
        const postgresBefore = postgresCpuSeconds();
        const {
          value: d,
          before,
          atPeak,
          hwm,
        } = await withRss(() => runClient(`${origin}${url(f.projeto)}`, cookie, format, saved));
        const serverCpu = process.cpuUsage(cpuBefore);
        const postgresAfter = postgresCpuSeconds();
        const cpuS = {
          server: Number(((serverCpu.user + serverCpu.system) / 1e6).toFixed(2)),
          client: Number((d.cpuMs / 1000).toFixed(2)),
          postgres:
            postgresBefore === null || postgresAfter === null || engine !== 'postgres'
              ? null
              : Number((postgresAfter - postgresBefore).toFixed(2)),
        };
        const grown = (key: 'rss' | 'heapTotal' | 'external') =>
          Number(((atPeak[key] - before[key]) / MB).toFixed(1));
        if (d.status !== 200) throw new Error(`${what}: HTTP ${d.status}`);
        if ((format === 'csv' || format === 'kml') && d.rows !== rows)
          throw new Error(`${what}: ${d.rows} rows, expected ${rows}`);
        if ((format === 'zip' || format === 'xlsx') && !d.zipComplete)
          throw new Error(`${what}: the zip has no end record`);
        if (format === 'gpkg') {
          const features = gpkgFeatures(saved);
          fs.rmSync(saved);
          if (features !== rows) throw new Error(`${what}: ${features} features, expected ${rows}`);
        }
        const rowsPerSecond = rows / (d.total / 1000);
        const result: Result = {
          engine,
          rows,
          format,
          what,
          rowsPerSecond: Math.round(rowsPerSecond),
          firstByteS: Number((d.firstByte / 1000).toFixed(3)),
          firstRowS: Number((d.firstRow / 1000).toFixed(3)),
          totalS: Number((d.total / 1000).toFixed(2)),
          bytes: d.bytes,
          rssBaselineMB: Math.round(before.rss / MB),
          rssGrowthMB: grown('rss'),
          rssGrowthHwmMB: hwm === null ? null : Number(((hwm - before.rss) / MB).toFixed(1)),
          heapTotalGrowthMB: grown('heapTotal'),
          externalGrowthMB: grown('external'),
          ratioToPeer: Number((rowsPerSecond / PEER_ROWS_PER_SECOND).toFixed(1)),
          loadAverage,
          cpuS,
        };
        console.log(
          `  ${what}: ${result.rowsPerSecond} rows/s, first byte ${result.firstByteS} s, first row ${result.firstRowS} s, ` +
            `${result.totalS} s, ${(d.bytes / MB).toFixed(1)} MB, RSS +${result.rssGrowthMB} MB ` +
            `(heap +${result.heapTotalGrowthMB}, external +${result.externalGrowthMB}; load ${loadAverage.join(' ')}); ` +
            `CPU s: server ${cpuS.server}, client ${cpuS.client}, PostgreSQL ${cpuS.postgres ?? '—'}`,
        );
        results.push(result);
      }
    }
  } finally {
    await app.close();
    fs.rmSync(blobDir, { recursive: true, force: true });
  }
  return results;
}

const startedAt = new Date().toISOString();
const results: Result[] = [];
let postgresVersion: string | null = null;

// PostgreSQL first: PGlite's WebAssembly memory stays with this process once used, and the PostgreSQL files
// measured after it ran 10–20 % slower (a server runs one engine, not both).
if (process.env.DATABASE_URL && postgresSizes.length > 0) {
  const NAME = 'novus_bench';
  const admin = openPostgres({ connectionString: process.env.DATABASE_URL });
  const [exists] = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${NAME}'`,
  );
  if (!REUSE || !exists?.n) {
    await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${NAME}`);
  }
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${NAME}`;
  const db = openPostgres({ connectionString: url.toString() });
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
    postgresVersion =
      (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0]?.v ?? null;
    results.push(...(await bench('postgres', db, postgresSizes)));
  } finally {
    await db.close();
    // The pool's end() resolves before its sockets are closed: wait for them, or the drop would cut a connection
    // the pool still listens to.
    for (let i = 0; i < 100; i++) {
      const [open] = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${NAME}'`,
      );
      if (!open?.n) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!process.env.BENCH_EXPORT_KEEP && !REUSE) await admin.query(`DROP DATABASE IF EXISTS ${NAME}`);
    await admin.close();
  }
} else if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: PostgreSQL skipped.');
}

if (pgliteSizes.length > 0) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-bench-export-pglite-'));
  const db = await openPglite({ dataDir });
  try {
    results.push(...(await bench('pglite', db, pgliteSizes)));
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.table(
  results.map((r) => ({
    engine: r.engine,
    rows: r.rows,
    format: r.what,
    'rows/s': r.rowsPerSecond,
    'first byte s': r.firstByteS,
    'first row s': r.firstRowS,
    'total s': r.totalS,
    MB: Number((r.bytes / MB).toFixed(1)),
    'RSS +MB': r.rssGrowthMB,
    'x peer': r.ratioToPeer,
  })),
);
console.log(
  `peer: ODK Central ${PEER_ROWS_PER_SECOND} rows/s (CSV, 100 k rows, DESIGN.md); load average now ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

const checks: string[] = [];
for (const r of results.filter((r) => r.engine === 'postgres' && r.format === 'csv')) {
  const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
  checks.push(
    `postgres csv ${r.rows}: ${r.rowsPerSecond} rows/s (target ≥ ${TARGET_ROWS_PER_SECOND}) ${pass(r.rowsPerSecond >= TARGET_ROWS_PER_SECOND)}; ` +
      `first row ${r.firstRowS} s (target < ${TARGET_FIRST_BYTE_S}) ${pass(r.firstRowS < TARGET_FIRST_BYTE_S)}` +
      (r.rows >= 1_000_000
        ? `; RSS +${r.rssGrowthMB} MB (target < ${TARGET_RSS_GROWTH_MB}) ${pass(r.rssGrowthMB < TARGET_RSS_GROWTH_MB)}`
        : ''),
  );
}
for (const line of checks) console.log(line);

fs.mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
fs.writeFileSync(
  new URL('./results/export.json', import.meta.url),
  `${JSON.stringify(
    {
      startedAt,
      machine: {
        cpus: os.cpus().length,
        totalMemMB: Math.round(os.totalmem() / MB),
        loadAverageEnd: os.loadavg(),
      },
      node: process.version,
      postgres: postgresVersion,
      peer: { name: 'ODK Central', rowsPerSecond: PEER_ROWS_PER_SECOND },
      targets: {
        rowsPerSecond: TARGET_ROWS_PER_SECOND,
        firstByteS: TARGET_FIRST_BYTE_S,
        rssGrowthMB: TARGET_RSS_GROWTH_MB,
      },
      checks,
      results,
    },
    null,
    2,
  )}\n`,
);
