// What the benches share: the app on a database with one administrador, and a separate Node process as the client.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { buildApp } from '../server/src/app.ts';
import { LoginLimiter } from '../server/src/auth/login-limiter.ts';
import { hashPassword } from '../server/src/auth/passwords.ts';
import { TokenService } from '../server/src/auth/tokens.ts';
import type { Database } from '../server/src/db/database.ts';
import { migrate } from '../server/src/db/migrate.ts';
import { insertUser } from '../server/src/modules/usuarios/queries.ts';
import { LocalBlobStore } from '../server/src/storage/blob-store.ts';

export const BENCH_PASSWORD = 'bench-senha-1';

/** The app on `db` (already migrated), photos under `blobDir`; not listening yet. */
export function buildBenchApp(db: Database, blobDir: string) {
  return buildApp({
    db,
    tokens: new TokenService('bench-secret-bench-secret-bench', 30),
    limiter: new LoginLimiter(),
    blobs: new LocalBlobStore(blobDir),
  });
}

/** Migrates `db`, adds an administrador (password BENCH_PASSWORD) and builds the app; answers both. */
export async function benchAppWithAdmin(db: Database, blobDir: string, name: string) {
  await migrate(db);
  const login = `${name}-${crypto.randomBytes(4).toString('hex')}`;
  await insertUser(db, {
    login,
    firstName: 'Bench',
    lastName: '',
    passwordHash: await hashPassword(BENCH_PASSWORD),
    roles: ['administrador'],
    cliente: undefined,
  });
  return { app: await buildBenchApp(db, blobDir), login };
}

/** Runs `script` (an ES module's text) in a separate Node process with `args`; resolves with its stdout. */
export function runClientProcess(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // BENCH_CLIENT_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the client.
    const nodeArgs = (process.env.BENCH_CLIENT_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (out += text));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`client exited with ${code}`)),
    );
  });
}
