// A fresh app and database for one test file, plus small factories for users and sessions.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { expect, inject } from 'vitest';
import type { Role } from '@novus/domain/roles';
import { buildApp } from '../../src/app.ts';
import { type LimiterOptions, LoginLimiter } from '../../src/auth/login-limiter.ts';
import type { OidcLogin } from '../../src/auth/oidc.ts';
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
  options: {
    limits?: LimiterOptions;
    trustProxy?: boolean;
    blobs?: Blobs;
    mapaPontosNoNavegador?: number;
    oidc?: OidcLogin;
  } = {},
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
    ...(options.mapaPontosNoNavegador === undefined ? {} : { mapaPontosNoNavegador: options.mapaPontosNoNavegador }),
    ...(options.oidc ? { oidc: options.oidc } : {}),
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

/**
 * Another app on the context's database, as `npm start` serves it: with a web build (dist) and its tile folder,
 * so the static routes exist too, and onRoute given to collect the route table.
 */
export async function createWebApp(
  ctx: TestContext,
  dist: string,
  onRoute: (route: RouteOptions) => void,
): Promise<FastifyInstance> {
  const app = await buildApp({
    db: ctx.db,
    tokens: new TokenService(TEST_SECRET, 30),
    blobs: ctx.blobs,
    webDist: dist,
    tilesDir: path.join(dist, 'tiles'),
    onRoute,
  });
  await app.ready();
  return app;
}

let sequence = 0;

/** A user made in the database (not through the API), in the given zones. */
export async function createUser(
  db: Database,
  options: {
    roles: Role[];
    cliente?: string;
    login?: string;
    password?: string;
    firstName?: string;
    zonas?: string[];
  },
): Promise<UsuarioRow> {
  sequence += 1;
  const user = await insertUser(db, {
    login: options.login ?? `user${sequence}-${crypto.randomBytes(3).toString('hex')}`,
    firstName: options.firstName ?? 'Fulano',
    lastName: 'de Tal',
    passwordHash: await hashPassword(options.password ?? PASSWORD),
    roles: options.roles,
    cliente: options.cliente,
  });
  for (const zona of options.zonas ?? []) {
    await db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [user.id, zona]);
  }
  return user;
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

/** A user made as createUser does and logged in through the API: its row and Cookie header. */
export async function createSession(
  app: FastifyInstance,
  db: Database,
  options: Parameters<typeof createUser>[1],
): Promise<{ user: UsuarioRow; cookie: string }> {
  const user = await createUser(db, options);
  return { user, cookie: await loginCookie(app, user.login) };
}

/** The Cookie header of a user made and logged in as createSession does. */
export async function createCookie(
  app: FastifyInstance,
  db: Database,
  options: Parameters<typeof createSession>[2],
): Promise<string> {
  return (await createSession(app, db, options)).cookie;
}

/** What POST /api/projeto answers, as far as every test reads it. */
export interface ProjetoCriado {
  _id: string;
  nome: string;
  zonas: { _id: string; label: string }[];
}

/**
 * A project as the administrador's form sends it: fuso 22 and the sample zoning of Curitiba unless the fields say
 * otherwise; its answer, typed as the test reads it.
 */
export async function createProjeto<Projeto extends ProjetoCriado = ProjetoCriado>(
  app: FastifyInstance,
  admin: string,
  fields: { nome: string; cliente: string; fluxos: string[] } & Record<string, string | string[]>,
): Promise<Projeto> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/projeto',
    headers: { ...FORM, cookie: admin },
    payload: formBody({ fuso: '22', kml: sample('zoneamento-curitiba.kml'), ...fields }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Projeto>();
}

/** The id of a project's zone by its label ('Zona Centro', 'Zona Batel', 'Zona Rebouças' of the sample KML). */
export function zonaId(projeto: Pick<ProjetoCriado, 'zonas'>, label: string): string {
  const zona = projeto.zonas.find((candidate) => candidate.label === label);
  if (!zona) throw new Error(`no zone ${label}`);
  return zona._id;
}

/** An administrador's session and a client they made, where most tests start. */
export async function createAdminCliente(
  app: FastifyInstance,
  db: Database,
  nome: string,
): Promise<{ administrador: UsuarioRow; admin: string; cliente: string }> {
  const { user: administrador, cookie: admin } = await createSession(app, db, { roles: ['administrador'] });
  return { administrador, admin, cliente: await createCliente(app, admin, nome) };
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
 * A project as an administrador makes one through the API: a new client (named as the project unless told), the
 * sample zoning of Curitiba, fuso 22, the given flows; and a técnico of that client in its 'Zona Centro' (where
 * CENTRO of the tests lies).
 */
export async function createFieldProject(
  app: FastifyInstance,
  db: Database,
  {
    nome,
    fluxos,
    firstName,
    cliente: clienteNome = nome,
  }: { nome: string; fluxos: string[]; firstName?: string; cliente?: string },
): Promise<FieldProject> {
  const { administrador, admin, cliente } = await createAdminCliente(app, db, clienteNome);
  const { _id: projeto, zonas } = await createProjeto(app, admin, { nome, cliente, fluxos });
  const { user: tecnico, cookie: tecnicoCookie } = await createSession(app, db, {
    roles: ['tecnico'],
    cliente,
    firstName,
    zonas: [zonaId({ zonas }, 'Zona Centro')],
  });
  return { administrador, admin, cliente, projeto, zonas, tecnico, tecnicoCookie };
}
