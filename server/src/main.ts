// Reads the configuration, opens and migrates the database, and serves the API and the web app: with one worker
// process per core (node:cluster, WORKERS to choose, WORKERS=1 for one process) on PostgreSQL; in one process on
// the embedded PGlite, which only one process can open (DESIGN.md 'One machine, every core').
import cluster from 'node:cluster';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { TokenService } from './auth/tokens.ts';
import { ensureFirstAdmin, type FirstAdmin } from './bootstrap.ts';
import { type Config, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { asyncLogStream } from './logger/stream.ts';
import { LocalBlobStore } from './storage/blob-store.ts';
import { S3BlobStore } from './storage/s3-blob-store.ts';

/** In-flight requests may finish within this; then every connection still open is cut. */
const GRACE_MS = 5000;
/** The process is gone by then whatever happens (orchestrators kill at 10 s). */
const EXIT_MS = 9000;
/** An unreferenced photo waits this long before removal: another process's request may be about to refer to it. */
const PHOTO_SWEEP_DELAY_MS = 10 * 60 * 1000;

const config = loadConfig();
const workers = workerCount(process.env.WORKERS, config);

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

/**
 * The primary of a cluster: migrates and creates the first administrador once, starts the workers (they share the
 * port), prints the banner once they all listen, starts a worker again when one dies, and on SIGTERM/SIGINT
 * passes the signal on and exits once every worker has (0 when they all stopped cleanly).
 */
async function primary(count: number): Promise<void> {
  const db = await openDatabase(config);
  const admin = await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
  await db.close();

  let closing = false;
  let failed = false;
  let listening = 0;
  const fork = () => cluster.fork();
  cluster.on('message', (_worker, message: unknown) => {
    if (message !== 'listening') return;
    listening += 1;
    if (listening === count) {
      console.log(banner(config, admin, `${count} processos`));
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') failed = true;
    if (closing) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    console.error(`Processo ${worker.process.pid} terminou (${signal ?? code}): iniciando outro.`);
    setTimeout(fork, 1000).unref();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      setTimeout(() => process.exit(1), EXIT_MS + 500).unref();
    });
  }
  for (let i = 0; i < count; i += 1) fork();
}

/** One server: alone (it prints the banner) or as a cluster's worker (it tells the primary it listens). */
async function serve(worker: boolean): Promise<void> {
  const db = await openDatabase(config);
  const admin = worker ? undefined : await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
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
    photoSweepDelayMs: PHOTO_SWEEP_DELAY_MS,
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
  if (worker) process.send?.('listening');
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
