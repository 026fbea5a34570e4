// What the benches share: the app on a database with one administrador, and a separate Node process as the client.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
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

/**
 * Over real HTTP: logs in as `login`, creates a client and a units project ('hc') on the Curitiba zoning sample,
 * both named `nome`; answers the session cookie and the project's id.
 */
export async function benchProject(
  origin: string,
  login: string,
  password: string,
  nome: string,
): Promise<{ cookie: string; projeto: string }> {
  const answer = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const post = async (url: string, body: string, type: string) => {
    const response = await fetch(`${origin}${url}`, {
      method: 'POST',
      headers: { cookie, 'content-type': type },
      body,
    });
    if (response.status !== 201) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { _id: string })._id;
  };
  const cliente = await post('/api/cliente', JSON.stringify({ nome }), 'application/json');
  const kml = fs.readFileSync(new URL('../docs/samples/zoneamento-curitiba.kml', import.meta.url), 'utf8');
  const projeto = await post(
    '/api/projeto',
    new URLSearchParams({ nome, cliente, fuso: '22', fluxos: 'hc', kml }).toString(),
    'application/x-www-form-urlencoded',
  );
  return { cookie, projeto };
}
