// Reads the configuration, opens and migrates the database, and serves the API and the web app.
import os from 'node:os';
import path from 'node:path';
import { buildApp } from './app.ts';
import { TokenService } from './auth/tokens.ts';
import { ensureFirstAdmin } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { LocalBlobStore } from './storage/blob-store.ts';

const config = loadConfig();
const db = await openDatabase(config);
const admin = await ensureFirstAdmin(db, config.adminLogin, config.adminPassword);
const app = await buildApp({
  db,
  tokens: new TokenService(config.authSecret, config.tokenDays),
  webDist: config.webDist,
  logger: true,
  trustProxy: process.env.TRUST_PROXY === '1',
  blobs: new LocalBlobStore(path.join(config.dataDir, 'fotos')),
  ...(config.tls ? { https: config.tls } : {}),
  tiles: config.tiles,
  ...(config.tilesDir ? { tilesDir: config.tilesDir } : {}),
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    // PGlite must be closed cleanly or its data directory is left for recovery on the next start.
    void app
      .close()
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
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
