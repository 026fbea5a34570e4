// Webhooks (issue 27): 10,000 changes delivered to a local receiver — a separate Node process that fails every third
// request with a 500 — by two dispatchers, each with its own connection pool, as two server processes would run
// them. The changes are 10,000 records written in one statement (each a 'registro criado' through migration 0015's
// trigger, each a delivery through 0016's). Prints the time from that commit until the outbox is drained, the
// receiver's count by delivery id (every one exactly once accepted, none accepted twice), the attempts, and what
// the outbox trigger adds to that write (the same statement with and without a webhook subscribed).
//   BENCH_WEBHOOKS_EVENTS=10000     changes
//   BENCH_WEBHOOKS_SERVERS=2        dispatchers (own pools; PostgreSQL only, one on PGlite)
//   BENCH_WEBHOOKS_RETRY_MS=1000    first retry's delay (production: 30 s; doubled each attempt, with jitter)
//   BENCH_WEBHOOKS_CONCURRENCY=8    sends in flight per dispatcher (the default)
// On PostgreSQL (DATABASE_URL: a database of its own), else on an in-memory PGlite.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { type Database, openPglite, openPostgres } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { WEBHOOK_DEFAULTS, WebhookDispatcher } from '../server/src/modules/webhooks/dispatcher.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOKS_EVENTS ?? 10_000);
const RETRY_MS = Number(process.env.BENCH_WEBHOOKS_RETRY_MS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOKS_CONCURRENCY ?? WEBHOOK_DEFAULTS.concurrency);
const NAME = 'novus_bench_webhooks';

/**
 * The receiver: answers 500 to every third request, 204 to the others; counts the accepted ones by delivery id.
 * Prints its port on stderr; a GET answers the counts, and GET /fim then ends it.
 */
const RECEIVER = String.raw`
import http from 'node:http';
let requests = 0;
const accepted = new Map();
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const counts = [...accepted.values()];
    res.end(JSON.stringify({ requests, distinct: accepted.size, twice: counts.filter((n) => n > 1).length }));
    if (req.url === '/fim') setImmediate(() => process.exit(0));
    return;
  }
  req.resume();
  req.on('end', () => {
    requests += 1;
    if (requests % 3 === 0) return res.writeHead(500).end();
    const id = req.headers['x-novus-entrega'];
    accepted.set(id, (accepted.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => console.error('PORT ' + server.address().port));
`;

const url = process.env.DATABASE_URL;
let admin: Database | undefined;
const pools: Database[] = [];
if (url) {
  admin = openPostgres({ connectionString: url });
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${NAME}`);
  const own = new URL(url);
  own.pathname = `/${NAME}`;
  const servers = Number(process.env.BENCH_WEBHOOKS_SERVERS ?? 2);
  for (let i = 0; i < servers; i += 1) pools.push(openPostgres({ connectionString: own.toString() }));
  await pools[0]?.query('CREATE EXTENSION IF NOT EXISTS postgis');
} else {
  pools.push(await openPglite({}));
}
const [db] = pools;
if (!db) throw new Error('no database');
await migrate(db);

const [cliente] = await db.query<{ id: string }>(
  `INSERT INTO clientes (nome) VALUES ('Webhooks') RETURNING id`,
);
const [projeto] = await db.query<{ id: string }>(
  `INSERT INTO projetos (nome, cliente, fluxos, fuso) VALUES ('Webhooks', $1, '{hc}', 22) RETURNING id`,
  [cliente?.id],
);
if (!projeto) throw new Error('no project');

/** EVENTS records in one statement: the ms it took. */
async function write(): Promise<number> {
  const t0 = performance.now();
  await db?.query(
    `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, sincronizado_em, coletado,
       adicionado_app, dados)
     SELECT gen_random_uuid(), 'hc', $1, -25.435, -49.275, ST_SetSRID(ST_MakePoint(-49.275, -25.435), 4326),
       now(), now(), true, true, jsonb_build_object('numero', n::text, 'tipoUnidade', 'SDU')
     FROM generate_series(1, $2::int) n`,
    [projeto.id, EVENTS],
  );
  return performance.now() - t0;
}

// The write path's cost of the outbox: the same statement before any webhook exists...
const semWebhook = await write();

// The receiver in its own process; its port from its first line on stderr.
const receiverOut: string[] = [];
const receiver = spawn(process.execPath, ['--input-type=module', '-e', RECEIVER], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
const port = await new Promise<number>((resolve) => {
  receiver.stderr.setEncoding('utf8');
  receiver.stderr.on('data', (text: string) => {
    receiverOut.push(text);
    const found = /PORT (\d+)/.exec(receiverOut.join(''));
    if (found) resolve(Number(found[1]));
  });
});
const contagem = async (path: string) =>
  (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as {
    requests: number;
    distinct: number;
    twice: number;
  };

await db.query(
  `INSERT INTO webhooks (projeto, url, eventos, segredo) VALUES ($1, $2, '{registro criado}', $3)`,
  [projeto.id, `http://127.0.0.1:${port}/gancho`, crypto.randomBytes(24).toString('base64url')],
);

const errors: unknown[] = [];
const dispatchers = pools.map(
  (pool) =>
    new WebhookDispatcher(pool, {
      ...WEBHOOK_DEFAULTS,
      allowPrivate: true,
      concurrency: CONCURRENCY,
      retryMs: RETRY_MS,
      pollMs: Math.min(WEBHOOK_DEFAULTS.pollMs, RETRY_MS),
      onError: (error) => errors.push(error),
    }),
);
for (const dispatcher of dispatchers) await dispatcher.start();

// ...and with one subscribed: the same statement writes the deliveries too.
const rss0 = process.memoryUsage().rss;
const comWebhook = await write();
const t0 = performance.now();
const estado = async () =>
  (
    await db.query<{ entregues: number; nunca: number }>(
      `SELECT count(*) FILTER (WHERE status = 'entregue')::int AS entregues,
         count(*) FILTER (WHERE tentativas = 0)::int AS nunca
       FROM webhook_entregas`,
    )
  )[0] ?? { entregues: 0, nunca: EVENTS };
let peakRss = rss0;
/** When every delivery had its first attempt, and when 90 % and 99 % were accepted (ms after the write). */
const marcos: Record<string, number> = {};
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const { entregues, nunca } = await estado();
  const agora = Math.round(performance.now() - t0);
  if (nunca === 0) marcos.todasTentadas ??= agora;
  if (entregues >= EVENTS * 0.9) marcos.entregues90 ??= agora;
  if (entregues >= EVENTS * 0.99) marcos.entregues99 ??= agora;
  if (entregues === EVENTS) break;
  if (performance.now() - t0 > 30 * 60_000) throw new Error('not drained in 30 minutes');
}
const drainMs = performance.now() - t0;
for (const dispatcher of dispatchers) await dispatcher.close();

const [tentativas] = await db.query<{ soma: number; max: number; entregues: number }>(
  `SELECT sum(tentativas)::int AS soma, max(tentativas) AS max, count(*)::int AS entregues FROM webhook_entregas`,
);
const received = await contagem('/fim');
for (const pool of pools) await pool.close();
if (admin) {
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.close();
}

const result = {
  engine: url ? 'postgres' : 'pglite',
  events: EVENTS,
  dispatchers: dispatchers.length,
  concurrency: CONCURRENCY,
  retryMs: RETRY_MS,
  drainMs: Math.round(drainMs),
  ...marcos,
  firstAttemptsPerSecond: marcos.todasTentadas ? Math.round((EVENTS / marcos.todasTentadas) * 1000) : null,
  receiver: received,
  outbox: tentativas,
  exactlyOnce: received.distinct === EVENTS && received.twice === 0 && tentativas?.entregues === EVENTS,
  writeMs: { semWebhook: Math.round(semWebhook), comWebhook: Math.round(comWebhook) },
  benchRssGrowthMb: Math.round((peakRss - rss0) / 1e5) / 10,
  dispatcherErrors: errors.length,
};
console.log(JSON.stringify(result, null, 2));
if (!result.exactlyOnce) process.exitCode = 1;
