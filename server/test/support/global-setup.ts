// Builds one migrated database per run; each test file then starts from a copy (DESIGN.md: never a fresh PGlite per test).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // test.env reaches the test files only, so the project's name tells which engine this run is for.
  if (project.name === 'server-postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is required for the PostgreSQL test project');
    const db = openPostgres({ connectionString: url });
    // Test schemas are created per file; PostGIS lives once in public, where every schema finds it.
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
    await db.close();
    project.provide('pgliteTemplate', '');
    return () => undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-pglite-template-'));
  const file = path.join(dir, 'template.tar.gz');
  const db = await openPglite({});
  await migrate(db);
  fs.writeFileSync(file, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
