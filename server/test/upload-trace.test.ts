// The durability contract read off the kernel, not the code: a real server process runs under strace while a unit
// with two photos is uploaded over HTTP, and the trace must show each photo's file fsynced, renamed onto its hash,
// its folder fsynced, then the record's commit sent to PostgreSQL, and only then the 201 written to the client.
// PostgreSQL (its own fsync of the commit is PostgreSQL's); skipped where strace is not installed.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../src/db/database.ts';
import { CENTRO } from './support/fixtures.ts';
import { fakeJpeg, multipart } from './support/multipart.ts';
import { call, login, type ServerProcess, startServer, stopServer } from './support/server-process.ts';
import { sample } from './support/test-app.ts';

const STRACE = spawnSync('strace', ['-V']).status === 0;
const ADMIN = { login: 'admin-trace', password: 'senha-do-admin-123' };
const SENHA = 'senha-de-teste-123';
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * strace's lines as whole calls, each where it returned: a call another thread interrupted is printed as
 * `<pid> name(args <unfinished ...>` and later `<pid> <... name resumed>rest`; the two are joined at the second.
 */
function completedCalls(trace: string): string[] {
  const pending = new Map<string, string>();
  const calls: string[] = [];
  for (const line of trace.split('\n')) {
    const unfinished = /^(\d+)\s+(.*) <unfinished \.\.\.>$/.exec(line);
    if (unfinished) {
      pending.set(unfinished[1] ?? '', `${unfinished[1]}  ${unfinished[2]}`);
      continue;
    }
    const resumed = /^(\d+)\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed) {
      calls.push(`${pending.get(resumed[1] ?? '') ?? ''}${resumed[2]}`);
      pending.delete(resumed[1] ?? '');
      continue;
    }
    calls.push(line);
  }
  return calls;
}

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres' || !STRACE)(
  'a real upload under strace: photos on stable storage before the commit, the commit before the 201',
  () => {
    const database = `novus_trace_${crypto.randomBytes(5).toString('hex')}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-trace-'));
    const traceFile = path.join(dataDir, 'strace.txt');
    let cluster: Database;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      const adminUrl = process.env.DATABASE_URL;
      if (!adminUrl) throw new Error('DATABASE_URL is required');
      cluster = openPostgres({ connectionString: adminUrl });
      await cluster.query(`CREATE DATABASE ${database}`);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      server = await startServer(
        'trace',
        {
          DATABASE_URL: url.toString(),
          WORKERS: '1',
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          ADMIN_LOGIN: ADMIN.login,
          ADMIN_PASSWORD: ADMIN.password,
          WEB_DIST: path.join(dataDir, 'sem-web'),
        },
        // -y names each descriptor's file or socket; -s shows enough of a write to read its first line.
        [
          'strace',
          '-f',
          '-y',
          '-s',
          '64',
          '-o',
          traceFile,
          '-e',
          'trace=fsync,fdatasync,rename,renameat,renameat2,writev,write,sendto',
        ],
      );
    }, 120_000);

    afterAll(async () => {
      await stopServer(server);
      await cluster?.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      await cluster?.query(`DROP DATABASE IF EXISTS ${database}`);
      await cluster?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("fsync(file) → rename → fsync(folder) for each photo, then the record's commit, then HTTP 201", async () => {
      if (!server) throw new Error('no server');
      const admin = await login(server, ADMIN.login, ADMIN.password);
      const created = async <T>(response: Response) => {
        const text = await response.text();
        expect(response.status, text).toBe(201);
        return JSON.parse(text) as T;
      };
      const cliente = await created<{ _id: string }>(
        await call(server, 'POST', '/api/cliente', { cookie: admin, json: { nome: 'Rastreio' } }),
      );
      const projeto = await created<{ _id: string; zonas: { _id: string; label: string }[] }>(
        await call(server, 'POST', '/api/projeto', {
          cookie: admin,
          form: {
            nome: 'Rastreio',
            cliente: cliente._id,
            fuso: '22',
            fluxos: ['hc'],
            kml: sample('zoneamento-curitiba.kml'),
          },
        }),
      );
      const centro = projeto.zonas.find((zona) => zona.label === 'Zona Centro')?._id ?? '';
      await created(
        await call(server, 'POST', '/api/user', {
          cookie: admin,
          form: {
            login: 'tecnico-rastreado',
            firstName: 'Rita',
            lastName: 'Souza',
            password: SENHA,
            passwordConfirmation: SENHA,
            roles: 'tecnico',
            zonas: [centro],
            cliente: cliente._id,
          },
        }),
      );
      const tecnico = await login(server, 'tecnico-rastreado', SENHA);

      const fotos = [fakeJpeg(), fakeJpeg()];
      const id = crypto.randomUUID();
      const body = multipart(
        {
          id,
          projeto: projeto._id,
          coordenadas: JSON.stringify(CENTRO),
          dataHora: String(Date.UTC(2026, 10, 28, 9)),
          tipoUnidade: 'SDU',
          tipoEdificacao: 'Residencial',
          tipoImovel: 'RESIDENCIAL',
          numero: '38',
          quantidade: '1',
        },
        fotos.map((data, slot) => ({
          field: 'fotos',
          filename: `${slot}.jpg`,
          contentType: 'image/jpeg',
          data,
        })),
      );
      // The trace from here on is the upload's: everything before it was written when the upload starts.
      const before = fs.statSync(traceFile).size;
      await created(await call(server, 'POST', '/api/unidade', { cookie: tecnico, multipart: body }));
      await new Promise((resolve) => setTimeout(resolve, 300)); // strace writes its lines as the calls return
      const lines = completedCalls(fs.readFileSync(traceFile).subarray(before).toString());

      const store = path.join(dataDir, 'fotos');
      const find = (predicate: (line: string) => boolean, from = 0) => {
        const index = lines.findIndex((line, i) => i >= from && predicate(line));
        return index;
      };
      const describeTrace = () => lines.filter((line) => line.trim()).join('\n');
      // The record's write to PostgreSQL: one INSERT … WITH statement that commits on its own (named
      // novus_insert_registro…), or a COMMIT closing a transaction.
      const commit = find(
        (line) =>
          /(write|sendto|writev)\(\d+<(TCP|UNIX|socket)/.test(line) &&
          /novus_insert_registro|COMMIT/.test(line),
      );
      const answer = find((line) => line.includes('HTTP/1.1 201'));
      expect(commit, describeTrace()).toBeGreaterThan(-1);
      expect(answer, describeTrace()).toBeGreaterThan(commit);
      for (const foto of fotos) {
        const hash = sha256(foto);
        const target = path.join(store, hash.slice(0, 2), hash);
        const rename = find((line) => /rename/.test(line) && line.includes(`"${target}"`));
        expect(rename, `${hash}\n${describeTrace()}`).toBeGreaterThan(-1);
        const tmp = /"([^"]*\/tmp\/[^"]+)"/.exec(lines[rename] ?? '')?.[1] ?? '';
        expect(tmp).not.toBe('');
        const fileSync = find(
          (line) => /^\d+\s+fsync\(\d+</.test(line) && line.includes(`<${tmp}>`) && / = 0$/.test(line),
        );
        const folderSync = find(
          (line) =>
            /fsync\(\d+</.test(line) && line.includes(`<${path.dirname(target)}>`) && / = 0$/.test(line),
          rename,
        );
        expect(fileSync, describeTrace()).toBeGreaterThan(-1);
        expect(fileSync).toBeLessThan(rename);
        expect(folderSync, describeTrace()).toBeGreaterThan(rename);
        expect(folderSync).toBeLessThan(commit);
      }
    });
  },
);
