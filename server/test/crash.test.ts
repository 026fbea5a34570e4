// Crashes survived (issue 38), on a PostgreSQL cluster of the test's own that it can stop at once: the primary
// restarts workers however they die and never exits unasked; a process started while PostgreSQL is away waits for
// it (503 meanwhile); and the seeded crash campaign (support/crash-campaign.ts), CRASH_RUNS crashes (6 by default;
// `npm run test:crash` asks for 100) from CRASH_SEED. PostgreSQL only: PGlite is one process, and not a server
// that stops on its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  workerPids,
  eventually,
  fieldProject,
  formatCrashCounts,
  freePort,
  postgresBin,
  PostgresCluster,
  runCrashCampaign,
  serverEnv,
  unidade,
} from './support/crash-campaign.ts';
import { fakeJpeg } from './support/multipart.ts';
import { call, type ServerProcess, startServer, stopServer } from './support/server-process.ts';

const RUNS = Number(process.env.CRASH_RUNS ?? 6);
const SEED = Number(process.env.CRASH_SEED ?? 20261201);
const INDISPONIVEL = 'Banco de dados indisponível. Tente novamente em instantes.';
const BIN = postgresBin();

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres' || !BIN)(
  'crashes survived (PostgreSQL, 2 workers)',
  () => {
    let cluster: PostgresCluster;
    let databaseUrl = '';
    const servers: ServerProcess[] = [];
    const dirs: string[] = [];

    const start = async (name: string, url = databaseUrl) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-crash-'));
      dirs.push(dataDir);
      const server = await startServer(name, serverEnv(url, dataDir, await freePort()));
      servers.push(server);
      return server;
    };
    /** The server's workers once the primary runs `count` of them, none of `old`. */
    const newWorkers = async (server: ServerProcess, old: number[], count = 2) => {
      const pid = server.process.pid ?? 0;
      await eventually(() => {
        const now = workerPids(pid);
        return now.length === count && now.every((child) => !old.includes(child));
      }, 90_000);
      return workerPids(pid);
    };
    const upload = async (server: ServerProcess, projeto: string, tecnico: string) => {
      const unit = unidade(projeto, [fakeJpeg()]);
      const response = await call(server, 'POST', '/api/unidade', { cookie: tecnico, multipart: unit.body });
      return response.status;
    };

    beforeAll(async () => {
      cluster = await PostgresCluster.create(BIN ?? '');
      databaseUrl = await cluster.createDatabase('novus');
    });

    afterAll(async () => {
      await Promise.all(servers.map((server) => stopServer(server)));
      await cluster?.destroy();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('restarts both workers killed within a second and keeps serving (the primary used to exit 0)', async () => {
      const server = await start('A');
      const { projeto, tecnico } = await fieldProject(server, 'Dois Processos Mortos');
      const workers = workerPids(server.process.pid ?? 0);
      expect(workers).toHaveLength(2);

      for (const worker of workers) {
        process.kill(worker, 'SIGKILL');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const restarted = await newWorkers(server, workers);
      expect(server.output.join('')).toMatch(/Processo \d+ terminou \(SIGKILL\)/);
      // Killed again as they start: an early death, restarted after a wait, and the primary still does not give up.
      for (const worker of restarted) process.kill(worker, 'SIGKILL');
      await newWorkers(server, restarted);
      expect(server.output.join('')).toMatch(/após iniciar \([12]ª vez seguida\): iniciando outro em [12] s/);

      await eventually(async () => (await upload(server, projeto, tecnico)) === 201, 60_000);
      expect((await call(server, 'GET', '/api/health')).status).toBe(200);
      expect(server.process.exitCode, server.output.join('')).toBeNull();
    }, 240_000);

    it('a worker started while PostgreSQL is stopped answers 503, then serves once it is back', async () => {
      const server = await start('B');
      const { projeto, tecnico } = await fieldProject(server, 'Banco Parado');
      const workers = workerPids(server.process.pid ?? 0);

      await cluster.stopImmediately();
      try {
        for (const worker of workers) process.kill(worker, 'SIGKILL');
        const waiting = await newWorkers(server, workers);
        // A route that needs no database answers 503 too: the process is waiting for its database, not serving.
        await eventually(async () => (await call(server, 'GET', '/api/config')).status === 503, 60_000);
        const config = await call(server, 'GET', '/api/config');
        expect(config.status).toBe(503);
        expect(await config.json()).toEqual({ message: INDISPONIVEL });
        const health = await call(server, 'GET', '/api/health');
        expect(health.status).toBe(503);
        expect(await health.json()).toMatchObject({ status: 'indisponível', banco: 'indisponível' });
        expect(await upload(server, projeto, tecnico)).toBe(503);
        // They wait; they do not die and come back.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        expect(workerPids(server.process.pid ?? 0).sort()).toEqual([...waiting].sort());
        expect(server.output.join('')).toMatch(/banco de dados indisponível \(/);
      } finally {
        await cluster.start();
      }
      await eventually(async () => (await upload(server, projeto, tecnico)) === 201, 60_000);
      expect((await call(server, 'GET', '/api/config')).status).toBe(200);
      expect((await call(server, 'GET', '/api/health')).status).toBe(200);
      expect(server.process.exitCode).toBeNull();
    }, 240_000);

    it('a server started while PostgreSQL is stopped waits for it, migrates, then serves', async () => {
      const url = await cluster.createDatabase('novus_parado');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-crash-'));
      dirs.push(dataDir);
      const env = serverEnv(url, dataDir, await freePort());
      await cluster.stopImmediately();
      let starting: Promise<ServerProcess> | undefined;
      try {
        starting = startServer('C', env);
        starting.catch(() => undefined);
        // The banner waits for the database; meanwhile the primary lives and its workers answer 503.
        await eventually(async () => {
          const response = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
          return response.status === 503;
        }, 60_000);
      } finally {
        await cluster.start();
      }
      const server = await starting;
      servers.push(server);
      expect(server.output.join('')).toMatch(/Processo principal: banco de dados indisponível/);
      const { projeto, tecnico } = await fieldProject(server, 'Servidor Antes do Banco');
      expect(await upload(server, projeto, tecnico)).toBe(201);
      expect(server.process.exitCode).toBeNull();
    }, 240_000);

    it(
      `${RUNS} crashes at seeded moments of uploads: every acknowledged record once, photos byte-identical`,
      async () => {
        const counts = await runCrashCampaign({
          cluster,
          databaseUrl,
          runs: RUNS,
          seed: SEED,
          log: (line) => console.log(line),
        });
        console.log(formatCrashCounts(counts, SEED));
        expect(counts.problems).toEqual([]);
        expect(counts.lost).toBe(0);
        expect(counts.duplicated).toBe(0);
        expect(counts.photoMismatches).toBe(0);
        expect(counts.strays).toBe(0);
        expect(Object.values(counts.crashes).reduce((a, b) => a + b, 0)).toBe(RUNS);
        if (RUNS >= 3) for (const n of Object.values(counts.crashes)) expect(n).toBeGreaterThan(0);
        expect(counts.records).toBeGreaterThan(0);
      },
      120_000 + RUNS * 30_000,
    );
  },
);
