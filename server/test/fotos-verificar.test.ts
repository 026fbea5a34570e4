// `npm run fotos:verificar` (issue 38): on a store with a missing photo, a damaged one and orphans it names the
// records of the first two and lists the orphans, exits 1, and with --remover-orfas removes only the orphan older
// than the grace period; on PGlite it refuses (exit 2) while another process holds the database.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { TokenService } from '../src/auth/tokens.ts';
import { type Database, openPglite, openPostgres } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { comProblemas, verificarFotos } from '../src/scripts/fotos-verificar.ts';
import { LocalBlobStore } from '../src/storage/blob-store.ts';
import { unidadeForm } from './support/fixtures.ts';
import {
  createFieldProject,
  createTestContext,
  fakeJpeg,
  TEST_SECRET,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const HOUR = 60 * 60 * 1000;
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const root = path.resolve(import.meta.dirname, '../..');

/** What a store made by `damagedStore` holds, by role. */
interface Damaged {
  /** The records' ids: its photo deleted, its bytes changed, intact. */
  registros: { ausente: string; danificada: string; intacta: string };
  hashes: { ausente: string; danificada: string; intacta: string; antiga: string; recente: string };
  /** The SHA-256 of the bytes now stored under the damaged photo's name. */
  lido: string;
}

/**
 * Three records with a photo each through the upload route; then one photo deleted, one overwritten with other
 * bytes, and two files no record refers to: one stored two hours ago, one just now.
 */
async function damagedStore(app: FastifyInstance, db: Database, blobDir: string): Promise<Damaged> {
  const blobs = new LocalBlobStore(blobDir);
  const campo = await createFieldProject(app, db, {
    nome: `Verificação ${crypto.randomUUID()}`,
    fluxos: ['hc'],
  });
  const fotos = { ausente: fakeJpeg(6000), danificada: fakeJpeg(6001), intacta: fakeJpeg(6002) };
  const registros = { ausente: '', danificada: '', intacta: '' };
  for (const key of ['ausente', 'danificada', 'intacta'] as const) {
    registros[key] = crypto.randomUUID();
    const response = await uploadRecord(app, 'unidade', unidadeForm(registros[key], campo.projeto), {
      fotos: [fotos[key]],
      cookie: campo.tecnicoCookie,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  const fileOf = (hash: string) => path.join(blobDir, hash.slice(0, 2), hash);
  fs.rmSync(fileOf(sha256(fotos.ausente)));
  const other = fakeJpeg(6001);
  fs.writeFileSync(fileOf(sha256(fotos.danificada)), other);
  const antiga = (await blobs.putImage(Readable.from([fakeJpeg(6003)]))).hash;
  const then = new Date(Date.now() - 2 * HOUR);
  fs.utimesSync(fileOf(antiga), then, then);
  const recente = (await blobs.putImage(Readable.from([fakeJpeg(6004)]))).hash;
  return {
    registros,
    hashes: {
      ausente: sha256(fotos.ausente),
      danificada: sha256(fotos.danificada),
      intacta: sha256(fotos.intacta),
      antiga,
      recente,
    },
    lido: sha256(other),
  };
}

describe('fotos:verificar', () => {
  let ctx: TestContext;
  let damaged: Damaged;

  beforeAll(async () => {
    ctx = await createTestContext();
    damaged = await damagedStore(ctx.app, ctx.db, ctx.blobDir);
  });
  afterAll(async () => ctx.close());

  it('names the records whose photo is missing or damaged, lists the orphans, and touches nothing', async () => {
    const lines: string[] = [];
    const verificacao = await verificarFotos(ctx.db, ctx.blobs, {
      graceMs: HOUR,
      log: (line) => lines.push(line),
      every: 2,
    });
    const { hashes, registros } = damaged;
    expect(verificacao.verificadas).toBe(3);
    expect(verificacao.ausentes).toEqual([
      {
        hash: hashes.ausente,
        registros: [
          {
            hash: hashes.ausente,
            registro: registros.ausente,
            fluxo: 'hc',
            projeto: expect.any(String),
            slot: 0,
            versao: null,
          },
        ],
      },
    ]);
    expect(verificacao.danificadas).toMatchObject([
      { hash: hashes.danificada, lido: damaged.lido, registros: [{ registro: registros.danificada }] },
    ]);
    expect(verificacao.orfas.map(({ hash, recente }) => [hash, recente]).sort()).toEqual(
      [
        [hashes.antiga, false],
        [hashes.recente, true],
      ].sort(),
    );
    expect(comProblemas(verificacao)).toBe(true);
    expect(lines).toEqual(
      expect.arrayContaining([
        '3 foto(s) referenciada(s) por registros: lendo cada uma e conferindo seu SHA-256.',
        // Read in the hashes' order: two of the three, with none, one or both of the problems among them.
        expect.stringMatching(/^2\/3 foto\(s\) verificada\(s\), [0-2] com problema\.$/),
        `AUSENTE ${hashes.ausente}: registro ${registros.ausente} (Unidade), foto 0`,
        `DANIFICADA ${hashes.danificada}: registro ${registros.danificada} (Unidade), foto 0; os bytes guardados têm SHA-256 ${damaged.lido}`,
        expect.stringMatching(new RegExp(`^ÓRFÃ ${hashes.antiga} \\(\\d+ KB, gravada há 2 h\\)$`)),
        expect.stringMatching(
          new RegExp(`^ÓRFÃ ${hashes.recente} .*recente, pode ser de um envio em andamento`),
        ),
        'Resumo: 3 foto(s) verificada(s); 1 ausente(s), 1 danificada(s); 2 órfã(s).',
      ]),
    );
    expect(await ctx.blobs.modifiedAt(hashes.antiga)).toBeDefined();
  });

  it('with removerOrfas removes only the orphan older than the grace period', async () => {
    const lines: string[] = [];
    const verificacao = await verificarFotos(ctx.db, ctx.blobs, {
      graceMs: HOUR,
      removerOrfas: true,
      log: (line) => lines.push(line),
    });
    const { hashes } = damaged;
    expect(verificacao.orfas.filter((orfa) => orfa.removida).map((orfa) => orfa.hash)).toEqual([
      hashes.antiga,
    ]);
    expect(await ctx.blobs.modifiedAt(hashes.antiga)).toBeUndefined();
    for (const kept of [hashes.recente, hashes.danificada, hashes.intacta])
      expect(await ctx.blobs.modifiedAt(kept)).toBeDefined();
    expect(lines).toContain(`REMOVIDA ${hashes.antiga}`);
    expect(lines).toContain(
      'Resumo: 3 foto(s) verificada(s); 1 ausente(s), 1 danificada(s); 2 órfã(s), 1 removida(s).',
    );
  });

  it('finds nothing wrong in a store that is whole', async () => {
    const clean = await createTestContext();
    try {
      const campo = await createFieldProject(clean.app, clean.db, { nome: 'Inteira', fluxos: ['hc'] });
      const response = await uploadRecord(
        clean.app,
        'unidade',
        unidadeForm(crypto.randomUUID(), campo.projeto),
        {
          fotos: [fakeJpeg(6005), fakeJpeg(6006)],
          cookie: campo.tecnicoCookie,
        },
      );
      expect(response.statusCode, response.body).toBe(201);
      const verificacao = await verificarFotos(clean.db, clean.blobs, { graceMs: HOUR });
      expect(verificacao).toEqual({ verificadas: 2, ausentes: [], danificadas: [], orfas: [] });
      expect(comProblemas(verificacao)).toBe(false);
    } finally {
      await clean.close();
    }
  });
});

/** `npm run fotos:verificar [-- args]` with DATA_DIR and env; its exit code and output. */
async function fotosVerificar(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _url, PHOTO_STORE: _store, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'fotos:verificar', '--', ...args],
      { cwd: root, env: { ...inherited, PHOTO_SWEEP_GRACE_MINUTES: '60', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.runIf(process.env.NOVUS_TEST_DB === 'pglite')(
  'npm run fotos:verificar on the embedded database',
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-verificar-'));
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    it('exits 2 while another process holds the database, then 1 naming each problem; removes the old orphan', async () => {
      const db = await openPglite({
        dataDir: path.join(dataDir, 'pglite'),
        loadDataDir: new Blob([fs.readFileSync(inject('pgliteTemplate'))]),
      });
      const blobDir = path.join(dataDir, 'fotos');
      const app = await buildApp({
        db,
        tokens: new TokenService(TEST_SECRET, 30),
        blobs: new LocalBlobStore(blobDir),
      });
      let damaged: Damaged | undefined;
      try {
        damaged = await damagedStore(app, db, blobDir);
        // This process is the server now: it holds the database's folder open.
        const refused = await fotosVerificar({ DATA_DIR: dataDir });
        expect(refused.code, refused.stdout + refused.stderr).toBe(2);
        expect(refused.stderr).toContain(`está aberto por outro processo (pid ${process.pid})`);
      } finally {
        await app.close();
        await db.close();
      }

      if (!damaged) throw new Error('no store made');
      const report = await fotosVerificar({ DATA_DIR: dataDir });
      expect(report.code, report.stdout + report.stderr).toBe(1);
      const { hashes, registros } = damaged;
      expect(report.stdout).toContain(
        `Verificando as fotos de ${blobDir} com o banco PGlite em ${dataDir}/pglite.`,
      );
      expect(report.stdout).toContain(
        `AUSENTE ${hashes.ausente}: registro ${registros.ausente} (Unidade), foto 0`,
      );
      expect(report.stdout).toContain(`DANIFICADA ${hashes.danificada}: registro ${registros.danificada}`);
      expect(report.stdout).toContain(`ÓRFÃ ${hashes.antiga}`);
      expect(report.stdout).toContain(`ÓRFÃ ${hashes.recente}`);
      expect(report.stdout).toContain(
        'Resumo: 3 foto(s) verificada(s); 1 ausente(s), 1 danificada(s); 2 órfã(s).',
      );

      const removal = await fotosVerificar({ DATA_DIR: dataDir }, ['--remover-orfas']);
      expect(removal.code, removal.stdout + removal.stderr).toBe(1);
      expect(removal.stdout).toContain(`REMOVIDA ${hashes.antiga}`);
      const left = fs.readdirSync(blobDir, { recursive: true }).map(String);
      expect(left.some((file) => file.endsWith(hashes.antiga))).toBe(false);
      for (const kept of [hashes.recente, hashes.danificada, hashes.intacta])
        expect(left.some((file) => file.endsWith(kept))).toBe(true);
    });
  },
);

describe.runIf(process.env.NOVUS_TEST_DB === 'postgres')('npm run fotos:verificar beside PostgreSQL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-verificar-'));
  const name = `novus_verificar_${crypto.randomBytes(5).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://localhost/');
  url.pathname = `/${name}`;
  let cluster: Database;

  beforeAll(async () => {
    cluster = openPostgres({ connectionString: process.env.DATABASE_URL ?? '' });
    await cluster.query(`CREATE DATABASE ${name}`);
  });
  afterAll(async () => {
    await cluster.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cluster.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 1 naming each problem while the server runs', async () => {
    const db = openPostgres({ connectionString: url.toString() });
    await migrate(db);
    const blobDir = path.join(dataDir, 'fotos');
    const app = await buildApp({
      db,
      tokens: new TokenService(TEST_SECRET, 30),
      blobs: new LocalBlobStore(blobDir),
    });
    try {
      const { hashes, registros } = await damagedStore(app, db, blobDir);
      const report = await fotosVerificar({ DATA_DIR: dataDir, DATABASE_URL: url.toString() }, [
        '--remover-orfas',
      ]);
      expect(report.code, report.stdout + report.stderr).toBe(1);
      expect(report.stdout).toContain(
        `AUSENTE ${hashes.ausente}: registro ${registros.ausente} (Unidade), foto 0`,
      );
      expect(report.stdout).toContain(`DANIFICADA ${hashes.danificada}: registro ${registros.danificada}`);
      expect(report.stdout).toContain(`REMOVIDA ${hashes.antiga}`);
      expect(report.stdout).toContain(
        'Resumo: 3 foto(s) verificada(s); 1 ausente(s), 1 danificada(s); 2 órfã(s), 1 removida(s).',
      );
    } finally {
      await app.close();
      await db.close();
    }
  });
});
