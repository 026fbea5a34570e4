// Applies the numbered SQL files of ./migrations once each, in order, on PostgreSQL and PGlite alike.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function migrate(db: Database): Promise<string[]> {
  const files = fs
    .readdirSync(migrationsDir)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  // One transaction under an advisory lock: servers starting together on one database wait for each other and
  // the first migrates; the others then find nothing left to do.
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Set(
      (await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
    );
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file)) continue;
      const sql = fs.readFileSync(path.join(migrationsDir, file), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      ran.push(file);
    }
    return ran;
  });
}

/** Any constant both servers agree on: 'novus' in ASCII. */
const MIGRATION_LOCK = 0x6e6f767573;

/**
 * Extended-protocol queries take one statement each: a migration is split at each `;` that ends a line, except
 * inside a dollar-quoted body (`$$ ... $$`, a trigger function's), whose statements end lines too.
 */
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  for (const [index, part] of sql.split('$$').entries()) {
    if (index % 2 === 1) {
      current += `$$${part}$$`;
      continue;
    }
    const pieces = part.split(/;\s*$/m);
    current += pieces[0];
    for (const piece of pieces.slice(1)) {
      statements.push(current);
      current = piece;
    }
  }
  statements.push(current);
  return statements
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
