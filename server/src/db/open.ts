// Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR) and migrates it.
import path from 'node:path';
import { type Database, openPglite, openPostgres } from './database.ts';
import { migrate } from './migrate.ts';

export async function openDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database> {
  const db = config.databaseUrl
    ? openPostgres({ connectionString: config.databaseUrl })
    : await openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
  await migrate(db);
  return db;
}
