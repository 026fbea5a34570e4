// Reads the configuration, opens and migrates the database (waiting for a PostgreSQL that is away), and serves the
// API and the web app: with one worker process per core (node:cluster, WORKERS to choose, WORKERS=1 for one
// process) on PostgreSQL, restarted whatever kills them; in one process on the embedded PGlite, which only one
// process can open (DESIGN.md 'One machine, every core').
import cluster from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { OidcLogin } from './auth/oidc.ts';
import { TokenService } from './auth/tokens.ts';
import { ensureFirstAdmin, type FirstAdmin } from './bootstrap.ts';
import { type Config, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { connectDatabase, DatabaseReadiness, type ReadinessOptions } from './db/open.ts';
import { databaseUnavailable } from './errors.ts';
import { asyncLogStream } from './logger/stream.ts';
import { LocalBlobStore } from './storage/blob-store.ts';
import { openPhotoStore, S3BlobStore } from './storage/s3-blob-store.ts';

/** In-flight requests may finish within this; then every connection still open is cut. */
const GRACE_MS = 5000;
/** The process is gone by then whatever happens (orchestrators kill at 10 s). */
const EXIT_MS = 9000;

const config = loadConfig();
const workers = workerCount(process.env.WORKERS, config);

// The only process on the photo store (alone, or the primary before it forks): what tmp/ holds a crash left there.
if (cluster.isPrimary) await openPhotoStore(config).removeTmp();
if (cluster.isPrimary && workers > 1) await primary(workers);
else await serve(cluster.isWorker);

/**
 * How many processes serve: WORKERS when set, else one per core; always one on PGlite (a second process cannot
 * open its folder).
 */
function workerCount(value: string | undefined, { databaseUrl }: Config): number {
  const asked = value === undefined || value === '' ? os.availableParallelism() : Number(value);
  if (!Number.isInteger(asked) || asked < 1) {
    throw new Error(`WORKERS inválido: "${value}". Use um número inteiro a partir de 1.`);
  }
  if (!databaseUrl && asked > 1) {
    if (value) console.warn('WORKERS ignorado: o banco embutido (PGlite) é aberto por um só processo.');
    return 1;
  }
  return asked;
}

/** A worker that dies within this of its start died early: a loop if it goes on, so each restart waits longer. */
const EARLY_DEATH_MS = 10_000;
/** The wait before restarting a worker after its first early death, doubled for each next one in a row. */
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
/**
 * Early deaths in a row of one worker after which the primary gives up and exits 1, for the supervisor (systemd,
 * an orchestrator) to see a failure: restarts 1, 2, 4, 8, 16 then 30 s apart, about 8 minutes of a loop.
 */
const CRASH_LOOP_LIMIT = 20;

/**
 * The primary of a cluster: starts the workers (they share the port), migrates and creates the first administrador
 * once, waiting for a database that is not there yet, and prints the banner once that is done and every worker
 * serves. A worker that dies, whatever killed it, is started again: at once after a run of EARLY_DEATH_MS or more,
 * later and later while it keeps dying early; the primary exits on its own only after CRASH_LOOP_LIMIT early deaths
 * in a row, with 1. On SIGTERM/SIGINT it passes the signal on and exits once every worker has (0 when they all
 * stopped cleanly).
 */
async function primary(count: number): Promise<void> {
  let closing = false;
  let failed = false;
  let admin: FirstAdmin | undefined;
  let prepared = false;
  let serving = 0;
  let announced = false;
  /** Per worker slot: its early deaths in a row and the restart waiting for it. */
  const slots = Array.from({ length: count }, () => ({
    earlyDeaths: 0,
    restart: undefined as NodeJS.Timeout | undefined,
  }));
  /** The workers running, by cluster id: their slot and when they started. */
  const running = new Map<number, { slot: number; startedAt: number }>();

  const announce = () => {
    if (announced || !prepared || serving < count) return;
    announced = true;
    console.log(banner(config, admin, `${count} processos`));
  };
  const fork = (slot: number) => {
    const state = slots[slot];
    if (state) state.restart = undefined;
    if (closing) return;
    const worker = cluster.fork();
    running.set(worker.id, { slot, startedAt: Date.now() });
    worker.on('error', (error: Error) => {
      console.error(`Processo ${worker.process.pid ?? '(não iniciado)'}: ${error.message}`);
      // A fork that could not even start (no memory, no process slots) never exits: restart its slot from here.
      if (worker.process.pid === undefined && running.delete(worker.id))
        died(slot, Date.now(), 'Processo não iniciado');
    });
  };
  /** Starts the slot's worker again, at once or after its backoff; gives up after CRASH_LOOP_LIMIT early deaths. */
  const died = (slot: number, startedAt: number, what: string) => {
    const state = slots[slot];
    if (!state || closing) return;
    const lived = Date.now() - startedAt;
    if (lived >= EARLY_DEATH_MS) {
      state.earlyDeaths = 0;
      console.error(`${what} após ${seconds(lived)} s: iniciando outro.`);
      fork(slot);
      return;
    }
    state.earlyDeaths += 1;
    if (state.earlyDeaths >= CRASH_LOOP_LIMIT) {
      console.error(
        `${what} ${seconds(lived)} s após iniciar, a ${state.earlyDeaths}ª vez seguida: o servidor desiste e ` +
          'encerra com erro (veja as mensagens acima).',
      );
      close('SIGTERM', true);
      return;
    }
    const delay = Math.min(RESTART_FIRST_MS * 2 ** (state.earlyDeaths - 1), RESTART_MAX_MS);
    console.error(
      `${what} ${seconds(lived)} s após iniciar (${state.earlyDeaths}ª vez seguida): ` +
        `iniciando outro em ${seconds(delay)} s.`,
    );
    state.restart = setTimeout(() => fork(slot), delay);
  };
  /** Passes the signal on to every worker and exits once they all have; by EXIT_MS + 0.5 s whatever happens. */
  const close = (signal: NodeJS.Signals, failure: boolean) => {
    if (closing) return;
    closing = true;
    failed ||= failure;
    for (const state of slots) clearTimeout(state.restart);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (running.size === 0) process.exit(failed ? 1 : 0);
    setTimeout(() => process.exit(1), EXIT_MS + 500).unref();
  };

  cluster.on('message', (_worker, message: unknown) => {
    if (message !== 'ready') return;
    serving += 1;
    announce();
  });
  cluster.on('exit', (worker, code, signal) => {
    const started = running.get(worker.id);
    running.delete(worker.id);
    if (closing) {
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') failed = true;
      if (running.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    if (started)
      died(started.slot, started.startedAt, `Processo ${worker.process.pid} terminou (${signal ?? code})`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => close(signal, false));
  for (let slot = 0; slot < count; slot += 1) fork(slot);

  // The workers start meanwhile: each waits for the database too, answering 503 until it is ready.
  const db = await connectDatabase(config);
  const readiness = new DatabaseReadiness(async () => {
    await migrate(db);
    admin = await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
  }, waitingLog('Processo principal'));
  try {
    await readiness.until();
  } catch (error) {
    console.error('O banco de dados recusou a preparação (migração ou primeiro administrador):', error);
    close('SIGTERM', true);
    return;
  } finally {
    await db.close();
  }
  prepared = true;
  announce();
}

/**
 * One server: alone (it prints the banner) or as a cluster's worker (it tells the primary once it serves). On
 * PostgreSQL it listens at once and waits for its database (a reboot starts both together; PostgreSQL restarts
 * after a crash): every request but /api/health, which probes for itself, is a 503 until the schema is checked.
 */
async function serve(worker: boolean): Promise<void> {
  const db = await connectDatabase(config);
  let admin: FirstAdmin | undefined;
  const readiness = new DatabaseReadiness(
    async () => {
      await migrate(db);
      if (!worker) admin = await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
    },
    waitingLog(`Processo ${process.pid}`),
  );
  // PGlite lives in this process and is never away: migrated before anything listens, as always.
  if (db.engine === 'pglite') await readiness.until();
  const logs = asyncLogStream();
  const app = await buildApp({
    db,
    tokens: new TokenService(config.authSecret, config.tokenDays),
    webDist: config.webDist,
    logger: { stream: logs },
    trustProxy: process.env.TRUST_PROXY === '1',
    blobs: config.photoStore
      ? S3BlobStore.fromLocation(config.photoStore)
      : new LocalBlobStore(path.join(config.dataDir, 'fotos')),
    ...(config.tls ? { https: config.tls } : {}),
    tiles: config.tiles,
    ...(config.tilesDir ? { tilesDir: config.tilesDir } : {}),
    photoGraceMs: config.photoGraceMs,
    ...(config.oidc ? { oidc: new OidcLogin(config.oidc) } : {}),
  });
  // A request arriving while the process waits tries the database at once: the first one after it is back is served.
  app.addHook('onRequest', async (request) => {
    if (readiness.ready || (await readiness.check())) return;
    if (request.routeOptions.url === '/api/health') return;
    throw databaseUnavailable();
  });

  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      void shutdown(signal);
    });
  }

  /**
   * Stops accepting connections, lets the requests in flight finish (an upload commits or rolls back whole), closes
   * the keep-alive connections as they fall idle, then the database: a client holding a connection open cannot
   * keep the process alive. PGlite must be closed cleanly or its data directory is left for recovery on the next
   * start.
   */
  async function shutdown(signal: string): Promise<void> {
    app.log.info(`${signal}: encerrando`);
    // server.close() closes the connections idle at that moment; these are the ones that fall idle afterwards.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      app.log.warn(`requisições ainda abertas após ${GRACE_MS / 1000} s: conexões encerradas`);
      app.server.closeAllConnections();
    }, GRACE_MS);
    const giveUp = setTimeout(() => {
      console.error(`Encerramento não terminou em ${EXIT_MS / 1000} s: saindo assim mesmo.`);
      process.exit(1);
    }, EXIT_MS);
    for (const timer of [sweep, cut, giveUp]) timer.unref();
    let code = 0;
    try {
      await app.close();
    } catch (error) {
      app.log.error({ err: error }, 'closing the server failed');
      code = 1;
    }
    clearInterval(sweep);
    clearTimeout(cut);
    try {
      await db.close();
    } catch (error) {
      app.log.error({ err: error }, 'closing the database failed');
      code = 1;
    }
    await logs.end();
    process.exit(code);
  }

  await app.listen({ port: config.port, host: config.host });
  await readiness.until();
  if (worker) process.send?.('ready');
  else console.log(banner(config, admin, db.engine === 'pglite' ? undefined : '1 processo'));
}

/** Where Novus answers, on which database, where photos go, and the first administrador's login once. */
function banner(config: Config, admin: FirstAdmin | undefined, processes: string | undefined): string {
  const scheme = config.tls ? 'https' : 'http';
  const urls = [`${scheme}://localhost:${config.port}/`];
  if (config.host === '0.0.0.0') {
    for (const addresses of Object.values(os.networkInterfaces())) {
      for (const address of addresses ?? []) {
        if (address.family === 'IPv4' && !address.internal)
          urls.push(`${scheme}://${address.address}:${config.port}/`);
      }
    }
  }
  const lines = [
    '',
    `Novus está no ar (${config.databaseUrl ? `PostgreSQL, ${processes}` : `PGlite em ${config.dataDir}`}):`,
    ...urls.map((url) => `  ${url}`),
    `  Back office: ${urls[0]}backoffice`,
    `  Fotos: ${config.photoStore ? `s3://${config.photoStore.bucket}/${config.photoStore.prefix}` : path.join(config.dataDir, 'fotos')}`,
  ];
  if (!config.tls && process.env.TRUST_PROXY !== '1') {
    lines.push(
      'Celulares na rede precisam de HTTPS para GPS, câmera e uso offline: informe TLS_KEY_FILE e TLS_CERT_FILE',
      'ou sirva o Novus atrás de um proxy com TLS (TRUST_PROXY=1). Em http://localhost tudo funciona.',
    );
  }
  if (admin) {
    lines.push(`Primeiro administrador criado: login "${admin.login}"`);
    lines.push(
      admin.generatedPassword
        ? `  senha gerada (anote, não será mostrada de novo): ${admin.generatedPassword}`
        : '  senha: a de ADMIN_PASSWORD',
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * Logs a process's wait for its database at the first tries and then at every power of two (a long outage does
 * not flood the log), and its end.
 */
function waitingLog(who: string): ReadinessOptions {
  return {
    onWait(error, attempt, delayMs) {
      if ((attempt & (attempt - 1)) !== 0) return;
      console.error(
        `${who}: banco de dados indisponível (${reason(error)}); nova tentativa em ${seconds(delayMs)} s.`,
      );
    },
    onReady(waitedMs) {
      console.error(`${who}: banco de dados disponível após ${seconds(waitedMs)} s.`);
    },
  };
}

/** An error's code and first line, for a log line. */
function reason(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  if (!message) return code || 'sem detalhe';
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/** Milliseconds as seconds with at most one decimal, pt-BR style (1,5). */
function seconds(ms: number): string {
  return (Math.round(ms / 100) / 10).toLocaleString('pt-BR');
}
