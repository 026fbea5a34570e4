// Several real server processes on one PostgreSQL, as behind a load balancer (issue 13): they start together, share
// sessions, the login limit and records; one stops gracefully on SIGTERM; one outlives its database going away.
// PostgreSQL only: PGlite cannot be shared by processes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres } from '../src/db/database.ts';
import { isDatabaseUnavailable } from '../src/db/errors.ts';
import { fakeJpeg, multipart } from './support/multipart.ts';
import { call, login, type ServerProcess, startServer, stopServer } from './support/server-process.ts';
import { sample } from './support/test-app.ts';

const ADMIN = { login: 'admin-processos', password: 'senha-do-admin-123' };
const SENHA = 'senha-de-teste-123';
const INDISPONIVEL = 'Banco de dados indisponível. Tente novamente em instantes.';
const MIGRATIONS = fs
  .readdirSync(fileURLToPath(new URL('../src/db/migrations', import.meta.url)))
  .filter((file) => file.endsWith('.sql')).length;

/** A unit inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml, with one unique photo. */
function unidade(projeto: string, foto = fakeJpeg()) {
  const id = crypto.randomUUID();
  const body = multipart(
    {
      id,
      projeto,
      coordenadas: JSON.stringify({ lat: -25.435123, lng: -49.275123 }),
      dataHora: String(Date.UTC(2026, 10, 24, 12, 0)),
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero: '10',
      quantidade: '1',
    },
    [{ field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: foto }],
  );
  return { id, foto, body };
}

async function created<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as T;
}

/**
 * A TCP proxy in front of PostgreSQL that a test can cut (every connection dropped, new ones refused, as a
 * database restarting or a network failing) and restore on the same port.
 */
async function databaseProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = async () => {
    const next = net.createServer((client) => {
      const upstream = net.connect(target);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    port = typeof address === 'object' && address ? address.port : 0;
    server = next;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const current = server;
      server = null;
      const closed = new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: listen,
  };
}

/** An open Server-Sent Events stream, its text as it arrives. */
async function eventStream(url: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  let text = '';
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    for (;;) {
      const { value, done } = (await reader?.read().catch(() => undefined)) ?? { done: true };
      if (done) return;
      text += value;
    }
  })();
  return { text: () => text, close: () => controller.abort() };
}

/** Calls `fn` until it returns true, every 100 ms, for at most `ms`; resolves with how long it took. */
async function eventually(fn: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await fn().catch(() => false)) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres')('server processes on one PostgreSQL', () => {
  const database = `novus_proc_${crypto.randomBytes(5).toString('hex')}`;
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  let cluster: Database;
  let db: Database;
  let databaseUrl: URL;
  /** Set up by the first test, on servers A and B; used by the others. */
  let projeto = '';

  /** One photo folder for every server (a shared volume), one token secret (as behind a load balancer). */
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-processos-'));
  dirs.push(dataDir);
  const env = (url: URL = databaseUrl) => ({
    DATABASE_URL: url.toString(),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    AUTH_SECRET: 'segredo-compartilhado-pelos-servidores',
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_DIST: path.join(dataDir, 'sem-web'),
  });
  const start = async (name: string, url?: URL) => {
    const server = await startServer(name, env(url));
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL is required');
    cluster = openPostgres({ connectionString: adminUrl });
    await cluster.query(`CREATE DATABASE ${database}`);
    databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${database}`;
    db = openPostgres({ connectionString: databaseUrl.toString() });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => stopServer(server)));
    await db?.close();
    if (cluster) {
      await cluster.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      await cluster.query(`DROP DATABASE IF EXISTS ${database}`);
      await cluster.close();
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts two servers together on a new database; sessions, the login limit and records are shared', async () => {
    // Started at the same moment: both migrate under one lock and both create the first administrator.
    const [a, b] = await Promise.all([start('A'), start('B')]);
    const migrations = await db.query<{ n: number; transactions: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT applied_at)::int AS transactions FROM schema_migrations',
    );
    expect(migrations).toEqual([{ n: MIGRATIONS, transactions: 1 }]);
    expect(await db.query('SELECT login FROM usuarios')).toEqual([{ login: ADMIN.login }]);

    // A session made on A opens B.
    const adminCookie = await login(a, ADMIN.login, ADMIN.password);
    const me = await call(b, 'GET', '/api/auth/me', { cookie: adminCookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ nome: 'Administrador', roles: ['administrador'] });

    const cliente = await created<{ _id: string }>(
      await call(a, 'POST', '/api/cliente', { cookie: adminCookie, json: { nome: 'Celesc' } }),
    );
    const novo = await created<{ _id: string; zonas: { _id: string; label: string }[] }>(
      await call(b, 'POST', '/api/projeto', {
        cookie: adminCookie,
        form: {
          nome: 'Vários Servidores',
          cliente: cliente._id,
          fuso: '22',
          fluxos: ['hc'],
          kml: sample('zoneamento-curitiba.kml'),
        },
      }),
    );
    projeto = novo._id;
    const centro = novo.zonas.find((zona) => zona.label === 'Zona Centro')?._id ?? '';
    await created(
      await call(a, 'POST', '/api/user', {
        cookie: adminCookie,
        form: {
          login: 'tecnica',
          firstName: 'Ana',
          lastName: 'Lima',
          password: SENHA,
          passwordConfirmation: SENHA,
          roles: 'tecnico',
          zonas: [centro],
          cliente: cliente._id,
        },
      }),
    );

    // Wrong passwords alternating between the servers are counted together: the limit (5 per login) is reached
    // on the sixth attempt, though neither server saw more than three.
    const tentativas: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const server = attempt % 2 === 0 ? a : b;
      const response = await call(server, 'POST', '/api/auth/login', {
        json: { login: 'tecnica', password: 'senha-errada-123' },
      });
      tentativas.push(response.status);
    }
    expect(tentativas).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const bloqueada = await call(a, 'POST', '/api/auth/login', {
      json: { login: 'tecnica', password: SENHA },
    });
    expect(bloqueada.status).toBe(429);
    await db.query("DELETE FROM login_falhas WHERE chave = 'login:tecnica'");

    // A record uploaded through A is read, photo included, through B.
    const tecnica = await login(b, 'tecnica', SENHA);
    const registro = unidade(projeto);
    await created(await call(a, 'POST', '/api/unidade', { cookie: tecnica, multipart: registro.body }));
    const lido = await call(b, 'GET', `/api/registro/${registro.id}`, { cookie: tecnica });
    expect(lido.status).toBe(200);
    expect(await lido.json()).toMatchObject({ _id: registro.id, numero: '10' });
    const foto = await call(b, 'GET', `/api/fotos/${registro.id}/0`, { cookie: tecnica });
    expect(foto.status).toBe(200);
    expect(Buffer.from(await foto.arrayBuffer()).equals(registro.foto)).toBe(true);

    const health = await call(b, 'GET', '/api/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', banco: 'ok', fotos: 'ok' });
  });

  it('on SIGTERM finishes the upload in flight, closes a keep-alive connection and exits 0 within 10 s', async () => {
    const server = await start('C');
    const tecnica = await login(server, 'tecnica', SENHA);

    // A client that keeps its connection open after its answer (keep-alive), as a browser does.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idle = await new Promise<net.Socket>((resolve, reject) => {
      const request = http.get(`${server.url}/api/health`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(request.socket as net.Socket));
      });
      request.on('error', reject);
    });
    const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));

    // An upload whose body is still on its way when the signal arrives; its connection too stays open after.
    const uploadAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const registro = unidade(projeto);
    const half = Math.floor(registro.body.payload.length / 2);
    const upload = http.request(`${server.url}/api/unidade`, {
      agent: uploadAgent,
      method: 'POST',
      headers: {
        ...registro.body.headers,
        'content-length': String(registro.body.payload.length),
        cookie: tecnica,
      },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      upload.on('error', reject);
    });
    upload.write(registro.body.payload.subarray(0, half));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalled = Date.now();
    server.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // No longer accepting: a new connection is refused.
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    upload.end(registro.body.payload.subarray(half));

    const result = await answer;
    expect(result.status, result.body).toBe(201);
    const code = await Promise.race([
      server.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000)),
    ]);
    const took = Date.now() - signalled;
    expect(code, server.output.join('')).toBe(0);
    expect(took).toBeLessThan(10_000);
    await idleClosed;
    agent.destroy();
    uploadAgent.destroy();
    expect(await db.query('SELECT id FROM registros WHERE id = $1', [registro.id])).toEqual([
      { id: registro.id },
    ]);
  });

  it('answers 503 while its database is cut off, stays up, and recovers by itself when it is back', async () => {
    const proxy = await databaseProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    const viaProxy = new URL(databaseUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const server = await start('D', viaProxy);
    const tecnica = await login(server, 'tecnica', SENHA);
    const adminCookie = await login(server, ADMIN.login, ADMIN.password);
    const registro = unidade(projeto);
    await created(await call(server, 'POST', '/api/unidade', { cookie: tecnica, multipart: registro.body }));
    const ler = () => call(server, 'GET', `/api/registro/${registro.id}`, { cookie: tecnica });
    expect((await ler()).status).toBe(200);
    // A supervisor's live map open through the outage: its server must listen again once the database is back.
    const mapa = await eventStream(`${server.url}/api/projeto/${projeto}/mapa/eventos`, adminCookie);

    await proxy.cut();
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await ler();
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ message: INDISPONIVEL });
    }
    const envio = await call(server, 'POST', '/api/unidade', {
      cookie: tecnica,
      multipart: unidade(projeto).body,
    });
    expect(envio.status).toBe(503);
    expect(await envio.json()).toEqual({ message: INDISPONIVEL });
    const eventos = await call(server, 'GET', `/api/projeto/${projeto}/mapa/eventos`, {
      cookie: adminCookie,
    });
    expect(eventos.status).toBe(503);
    const health = await call(server, 'GET', '/api/health');
    expect(health.status).toBe(503);
    // Which part fails, and nothing of why or where.
    expect(await health.json()).toEqual({ status: 'indisponível', banco: 'indisponível', fotos: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.process.exitCode, server.output.join('')).toBeNull();

    await proxy.restore();
    const recovered = await eventually(async () => (await ler()).status === 200, 5000);
    expect(recovered).toBeLessThan(5000);
    expect((await call(server, 'GET', '/api/health')).status).toBe(200);
    // Points stored while the server was not listening yet are not replayed (the map reloads for those): a point
    // stored once it listens again reaches the map still open.
    await eventually(async () => {
      const depois = unidade(projeto);
      await created(await call(server, 'POST', '/api/unidade', { cookie: tecnica, multipart: depois.body }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return mapa.text().includes(depois.id);
    }, 5000);
    mapa.close();
    await stopServer(server);
    await proxy.cut();
  });

  it('fails a query, a transaction and a streamed read cut off mid-way as unavailable, then works again', async () => {
    const proxy = await databaseProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    const viaProxy = new URL(databaseUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const cortado = openPostgres({ connectionString: viaProxy.toString() });
    try {
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => 'completed',
          (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : String(error)),
        );
      const query = failure(cortado.query('SELECT pg_sleep(5)'));
      const transaction = failure(
        cortado.transaction(async (tx) => {
          await tx.query('SELECT 1');
          await new Promise((resolve) => setTimeout(resolve, 1000));
          await tx.query('SELECT 2');
        }),
      );
      const stream = failure(
        (async () => {
          for await (const rows of cortado.stream('SELECT g FROM generate_series(1, 100000) g', [], 10)) {
            expect(rows).toHaveLength(10);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })(),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await proxy.cut();
      expect(await Promise.all([query, transaction, stream])).toEqual([
        'unavailable',
        'unavailable',
        'unavailable',
      ]);
      expect(await failure(cortado.query('SELECT 1'))).toBe('unavailable');
      await proxy.restore();
      expect(await cortado.query('SELECT 3 AS n')).toEqual([{ n: 3 }]);
    } finally {
      await cortado.close();
      await proxy.cut();
    }
  });
});
