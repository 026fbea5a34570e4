// Reads the configuration, opens and migrates the database, and serves the API and the web app.
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { TokenService } from './auth/tokens.ts';
import { ensureFirstAdmin } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { LocalBlobStore } from './storage/blob-store.ts';
import { S3BlobStore } from './storage/s3-blob-store.ts';

const config = loadConfig();
const db = await openDatabase(config);
const admin = await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
const app = await buildApp({
  db,
  tokens: new TokenService(config.authSecret, config.tokenDays),
  webDist: config.webDist,
  logger: true,
  trustProxy: process.env.TRUST_PROXY === '1',
  blobs: config.photoStore
    ? S3BlobStore.fromLocation(config.photoStore)
    : new LocalBlobStore(path.join(config.dataDir, 'fotos')),
  ...(config.tls ? { https: config.tls } : {}),
  tiles: config.tiles,
  ...(config.tilesDir ? { tilesDir: config.tilesDir } : {}),
});

/** In-flight requests may finish within this; then every connection still open is cut. */
const GRACE_MS = 5000;
/** The process is gone by then whatever happens (orchestrators kill at 10 s). */
const EXIT_MS = 9000;

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
 * the keep-alive connections as they fall idle, then the database: a client holding a connection open cannot keep
 * the process alive. PGlite must be closed cleanly or its data directory is left for recovery on the next start.
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
  process.exit(code);
}

await app.listen({ port: config.port, host: config.host });

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
  `Novus está no ar (${db.engine === 'pglite' ? `PGlite em ${config.dataDir}` : 'PostgreSQL'}):`,
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
console.log(lines.join('\n') + '\n');
