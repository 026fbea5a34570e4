// A fresh app and database for one test file, plus small factories for users and sessions.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import type { Role } from '@novus/domain/roles';
import { buildApp } from '../../src/app.ts';
import { type LimiterOptions, LoginLimiter } from '../../src/auth/login-limiter.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import { type Database, openPglite, openPostgres } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { insertUser, type UsuarioRow } from '../../src/modules/usuarios/queries.ts';
import { type BlobStore, LocalBlobStore } from '../../src/storage/blob-store.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256';
export const PASSWORD = 'senha-de-teste-123';

export interface TestContext<Blobs extends BlobStore = LocalBlobStore> {
  app: FastifyInstance;
  db: Database;
  tokens: TokenService;
  blobs: Blobs;
  blobDir: string;
  close(): Promise<void>;
}

async function openTestDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (process.env.NOVUS_TEST_DB === 'postgres') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is required');
    const schema = `test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = openPostgres({ connectionString: url });
    await admin.query(`CREATE SCHEMA ${schema}`);
    const db = openPostgres({ connectionString: url, schema });
    await migrate(db);
    return {
      db,
      drop: async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.close();
      },
    };
  }
  const template = fs.readFileSync(inject('pgliteTemplate'));
  const db = await openPglite({ loadDataDir: new Blob([template]) });
  return { db, drop: async () => undefined };
}

export async function createTestContext<Blobs extends BlobStore = LocalBlobStore>(
  options: { limits?: LimiterOptions; trustProxy?: boolean; blobs?: Blobs } = {},
): Promise<TestContext<Blobs>> {
  const { db, drop } = await openTestDatabase();
  const tokens = new TokenService(TEST_SECRET, 30);
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-fotos-'));
  // Another store (S3) when the test passes one; blobDir stays, empty.
  const blobs = options.blobs ?? (new LocalBlobStore(blobDir) as BlobStore as Blobs);
  const app = await buildApp({
    db,
    tokens,
    blobs,
    limiter: new LoginLimiter(options.limits),
    trustProxy: options.trustProxy ?? false,
  });
  await app.ready();
  return {
    app,
    db,
    tokens,
    blobs,
    blobDir,
    async close() {
      await app.close();
      await db.close();
      await drop();
      fs.rmSync(blobDir, { recursive: true, force: true });
    },
  };
}

let sequence = 0;

export async function createUser(
  db: Database,
  options: { roles: Role[]; cliente?: string; login?: string; password?: string; firstName?: string },
): Promise<UsuarioRow> {
  sequence += 1;
  return insertUser(db, {
    login: options.login ?? `user${sequence}-${crypto.randomBytes(3).toString('hex')}`,
    firstName: options.firstName ?? 'Fulano',
    lastName: 'de Tal',
    passwordHash: await hashPassword(options.password ?? PASSWORD),
    roles: options.roles,
    cliente: options.cliente,
  });
}

/** Logs in through the API and returns the Cookie header to send with later requests. */
export async function loginCookie(app: FastifyInstance, login: string, password = PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { login, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'auth_token');
  if (!cookie) throw new Error('no auth_token cookie');
  return `auth_token=${cookie.value}`;
}

/** A sample file of docs/samples (the same ones the README documents). */
export function sample(name: string): string {
  return fs.readFileSync(new URL(`../../../docs/samples/${name}`, import.meta.url), 'utf8');
}

/** Sends a request as a browser form would (application/x-www-form-urlencoded). */
export function formBody(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  }
  return params.toString();
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;

import { multipart } from './multipart.ts';

export { fakeJpeg, multipart, type MultipartFile } from './multipart.ts';

/** POST /api/{apiPath} as the app sends a record: its fields, then its photos under 'fotos' named by slot. */
export function uploadRecord(
  app: FastifyInstance,
  apiPath: string,
  fields: Record<string, string>,
  { fotos = [], cookie, names }: { fotos?: Buffer[]; cookie: string; names?: string[] },
) {
  const body = multipart(
    fields,
    fotos.map((data, i) => ({
      field: 'fotos',
      filename: names?.[i] ?? `${i}.jpg`,
      contentType: 'image/jpeg',
      data,
    })),
  );
  return app.inject({
    method: 'POST',
    url: `/api/${apiPath}`,
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

/** A client made through the API; its id. */
export async function createCliente(app: FastifyInstance, cookie: string, nome: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/cliente',
    headers: { cookie },
    payload: { nome },
  });
  if (response.statusCode !== 201) throw new Error(`cliente: ${response.statusCode} ${response.body}`);
  return (response.json() as { _id: string })._id;
}

export interface FieldProject {
  administrador: UsuarioRow;
  /** The administrador's Cookie header. */
  admin: string;
  cliente: string;
  projeto: string;
  zonas: { _id: string; label: string }[];
  /** A técnico of the client working in 'Zona Centro'. */
  tecnico: UsuarioRow;
  tecnicoCookie: string;
}

/**
 * A project as an administrador makes one through the API: a new client, the sample zoning of Curitiba, fuso 22,
 * the given flows; and a técnico of that client in its 'Zona Centro' (where CENTRO of the tests lies).
 */
export async function createFieldProject(
  app: FastifyInstance,
  db: Database,
  { nome, fluxos, firstName }: { nome: string; fluxos: string[]; firstName?: string },
): Promise<FieldProject> {
  const administrador = await createUser(db, { roles: ['administrador'] });
  const admin = await loginCookie(app, administrador.login);
  const cliente = await createCliente(app, admin, nome);
  const created = await app.inject({
    method: 'POST',
    url: '/api/projeto',
    headers: { ...FORM, cookie: admin },
    payload: formBody({ nome, cliente, fuso: '22', fluxos, kml: sample('zoneamento-curitiba.kml') }),
  });
  if (created.statusCode !== 201) throw new Error(`projeto: ${created.statusCode} ${created.body}`);
  const { _id: projeto, zonas } = created.json() as { _id: string; zonas: { _id: string; label: string }[] };
  const tecnico = await createUser(db, { roles: ['tecnico'], cliente, ...(firstName ? { firstName } : {}) });
  await db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [
    tecnico.id,
    zonas.find((zona) => zona.label === 'Zona Centro')?._id,
  ]);
  const tecnicoCookie = await loginCookie(app, tecnico.login);
  return { administrador, admin, cliente, projeto, zonas, tecnico, tecnicoCookie };
}
