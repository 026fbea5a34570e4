// Moving off the embedded database (issue 13): a pilot's PGlite copied into an empty PostgreSQL by moveDatabase,
// then the app started on the copy answers as the pilot did (logins, projects, photos, the units CSV byte for
// byte); and a pg_dump of that database restored by pg_restore into another one, with the app started on it.
// PostgreSQL only: the copy needs a cluster to copy into.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { type Database, openPglite, openPostgres } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { moved, moveDatabase, MoveError } from '../src/db/move.ts';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import { createFieldProject, fakeJpeg, loginCookie, TEST_SECRET, uploadRecord } from './support/test-app.ts';

const url = process.env.DATABASE_URL;
const CENTRO = { lat: -25.435, lng: -49.275 };

function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((version) => path.join(root, version, 'bin', name))
    .find((file) => fs.existsSync(file));
  return found ?? name;
}

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres' || !url)('moving the pilot to PostgreSQL', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-move-'));
  const blobs = new LocalBlobStore(path.join(scratch, 'fotos'));
  const tokens = new TokenService(TEST_SECRET, 30);
  const databases: string[] = [];
  const opened: { app?: FastifyInstance; db: Database }[] = [];
  let admin: Database;
  let source: Database;
  let pilot: FastifyInstance;
  let projeto: string;
  let tecnicoLogin: string;
  let adminLogin: string;
  const unidades: string[] = [];
  const fotos: Buffer[] = [fakeJpeg(3000), fakeJpeg(4000), fakeJpeg(5000)];

  /** A new, empty database on the cluster of DATABASE_URL; its URL. */
  async function newDatabase(): Promise<string> {
    const name = `novus_move_${crypto.randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    databases.push(name);
    const target = new URL(url ?? '');
    target.pathname = `/${name}`;
    return target.toString();
  }

  async function serve(db: Database): Promise<FastifyInstance> {
    const app = await buildApp({ db, tokens, blobs });
    await app.ready();
    opened.push({ app, db });
    return app;
  }

  const unidadesCsv = async (app: FastifyInstance, cookie: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/extrator/${projeto}/unidades.csv`,
      headers: { cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  };

  beforeAll(async () => {
    admin = openPostgres({ connectionString: url ?? '' });
    source = await openPglite({ dataDir: path.join(scratch, 'pglite') });
    await migrate(source);
    pilot = await serve(source);
    const campo = await createFieldProject(pilot, source, {
      nome: 'Expansão Piloto',
      fluxos: ['hc', 'poste'],
    });
    projeto = campo.projeto;
    tecnicoLogin = campo.tecnico.login;
    adminLogin = campo.administrador.login;
    const tecnicoCookie = campo.tecnicoCookie;
    for (const [index, photos] of [[fotos[0], fotos[1]], [fotos[2]], []].entries()) {
      const id = crypto.randomUUID();
      const response = await uploadRecord(
        pilot,
        'unidade',
        {
          id,
          projeto,
          coordenadas: JSON.stringify({ lat: CENTRO.lat + index * 1e-4, lng: CENTRO.lng }),
          dataHora: String(Date.UTC(2026, 10, 20, 14, 30 + index)),
          precisao: '4.5',
          tipoUnidade: 'SDU',
          tipoEdificacao: 'Residencial',
          tipoImovel: 'RESIDENCIAL',
          numero: String(100 + index),
          quantidade: '1',
          observacao: 'Medição na calçada; acesso pelo portão',
        },
        { fotos: photos as Buffer[], cookie: tecnicoCookie },
      );
      expect(response.statusCode, response.body).toBe(201);
      unidades.push(id);
    }
  });

  afterAll(async () => {
    for (const { app } of opened) await app?.close();
    for (const db of new Set(opened.map((entry) => entry.db))) if (db !== source) await db.close();
    await source?.close();
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('copies every table and checks every photo; the app on the copy answers as the pilot did', async () => {
    const target = openPostgres({ connectionString: await newDatabase() });
    opened.push({ db: target });
    await migrate(target);
    const report = await moveDatabase(source, target, blobs);
    expect(moved(report)).toBe(true);
    expect(report.fotos).toEqual({ verificadas: 3, ausentes: [], divergentes: [] });
    const counts = Object.fromEntries(report.tabelas.map((table) => [table.tabela, table.destino]));
    expect(counts).toMatchObject({ clientes: 1, usuarios: 2, projetos: 1, registros: 3, fotos: 3 });
    expect(report.tabelas.every((table) => table.origem === table.destino)).toBe(true);

    const copy = await serve(target);
    // The same passwords log in (hashes copied), the same sessions' secret signs.
    const adminCookie = await loginCookie(copy, adminLogin);
    const tecnicoCookie = await loginCookie(copy, tecnicoLogin);
    expect(await unidadesCsv(copy, adminCookie)).toEqual(
      await unidadesCsv(pilot, await loginCookie(pilot, adminLogin)),
    );
    const zonas = await copy.inject({
      method: 'GET',
      url: `/api/projeto/${projeto}`,
      headers: { cookie: adminCookie },
    });
    expect(zonas.statusCode).toBe(200);
    expect((zonas.json() as { zonas: unknown[] }).zonas.length).toBeGreaterThan(0);
    const photo = await copy.inject({
      method: 'GET',
      url: `/api/fotos/${unidades[0]}/0`,
      headers: { cookie: tecnicoCookie },
    });
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(fotos[0] as Buffer)).toBe(true);
    // New rows after the copy: serial ids continue past the copied ones.
    expect(
      (
        await copy.inject({
          method: 'POST',
          url: '/api/cliente',
          headers: { cookie: adminCookie },
          payload: { nome: 'Nova' },
        })
      ).statusCode,
    ).toBe(201);

    // Never merged into a database that has data.
    await expect(moveDatabase(source, target, blobs)).rejects.toThrow(MoveError);
  });

  it('reports a photo missing from the store instead of claiming success', async () => {
    const hash = crypto
      .createHash('sha256')
      .update(fotos[2] as Buffer)
      .digest('hex');
    const file = path.join(scratch, 'fotos', hash.slice(0, 2), hash);
    const kept = fs.readFileSync(file);
    fs.rmSync(file);
    try {
      const target = openPostgres({ connectionString: await newDatabase() });
      opened.push({ db: target });
      await migrate(target);
      const report = await moveDatabase(source, target, blobs);
      expect(report.fotos.ausentes).toEqual([hash]);
      expect(moved(report)).toBe(false);
    } finally {
      fs.writeFileSync(file, kept);
    }
  });

  it('restores a pg_dump into an empty database and the app starts on it', async () => {
    const copied = await newDatabase();
    const target = openPostgres({ connectionString: copied });
    opened.push({ db: target });
    await migrate(target);
    expect(moved(await moveDatabase(source, target, blobs))).toBe(true);
    const dump = path.join(scratch, 'novus.dump');
    execFileSync(pgBin('pg_dump'), ['--format=custom', `--file=${dump}`, copied]);
    const restoredUrl = await newDatabase();
    execFileSync(pgBin('pg_restore'), ['--no-owner', `--dbname=${restoredUrl}`, dump]);
    const restored = openPostgres({ connectionString: restoredUrl });
    // Starting the app migrates first: nothing is left to apply.
    await migrate(restored);
    const app = await serve(restored);
    const cookie = await loginCookie(app, adminLogin);
    expect(await unidadesCsv(app, cookie)).toEqual(
      await unidadesCsv(pilot, await loginCookie(pilot, adminLogin)),
    );
  });
});
