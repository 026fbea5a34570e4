// npm run db:move: the pilot's embedded database (PGlite under DATA_DIR) copied into the PostgreSQL of
// DATABASE_URL, an empty database, then checked by counts and by the hash of every photo (in DATA_DIR/fotos, or
// in PHOTO_STORE when the photos were moved there with `npm run photos:migrate`). The source is left as it was.
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { moved, moveDatabase, MoveError } from '../db/move.ts';
import { LocalBlobStore } from '../storage/blob-store.ts';
import { S3BlobStore } from '../storage/s3-blob-store.ts';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('Defina DATABASE_URL: o PostgreSQL (vazio) que recebe os dados de DATA_DIR.');
  process.exit(2);
}
const source = await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
const target = openPostgres({ connectionString: config.databaseUrl });
try {
  await migrate(source);
  await migrate(target);
  const blobs = config.photoStore
    ? S3BlobStore.fromLocation(config.photoStore)
    : new LocalBlobStore(path.join(config.dataDir, 'fotos'));
  console.log(`De ${config.dataDir} (PGlite) para ${new URL(config.databaseUrl).host} (PostgreSQL):`);
  const report = await moveDatabase(source, target, blobs, (line) => console.log(`  ${line}`));
  console.table(report.tabelas);
  console.log(
    `fotos: ${report.fotos.verificadas} verificadas, ${report.fotos.ausentes.length} ausentes, ${report.fotos.divergentes.length} divergentes`,
  );
  for (const hash of [...report.fotos.ausentes, ...report.fotos.divergentes]) console.log(`  ${hash}`);
  if (!moved(report)) {
    console.error('A cópia não confere: veja as contagens e as fotos acima.');
    process.exitCode = 1;
  } else {
    console.log('Tudo copiado e conferido. Inicie o Novus com DATABASE_URL apontando para o PostgreSQL.');
  }
} catch (error) {
  if (!(error instanceof MoveError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await source.close();
  await target.close();
}
