// Two server processes on one PostgreSQL database behave as one (DESIGN.md 'Reading a lot'): a unit sent through
// server A reaches a supervisor map open on server B as a Server-Sent Event, and B's map shows it. Real processes
// (`node --import tsx server/src/main.ts`), a database of their own, real HTTP.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MapaProjeto, type PontoEvento, STATUS, uuidFromCompact } from '@novus/domain/mapa/api';
import { type Database, openPostgres } from '../src/db/database.ts';
import { PontosLive } from '../src/live/pontos.ts';
import { fakeJpeg, multipart } from './support/multipart.ts';
import { call, login, type ServerProcess, startServer, stopServer } from './support/server-process.ts';
import { sample } from './support/test-app.ts';

const ADMIN = { login: 'admin-dois', password: 'senha-do-admin-123' };
const SENHA = 'senha-de-teste-123';

async function created<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as T;
}

/** The `ponto` events of one open stream, read as they arrive. */
async function openEventos(url: string, cookie: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  const body = response.body;
  if (!body) throw new Error('event stream without a body');
  const received: PontoEvento[] = [];
  let buffer = '';
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length);
          if (lines.includes('event: ponto') && data) received.push(JSON.parse(data) as PontoEvento);
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    received,
    /** The first event with this id, within `ms`. */
    async waitFor(id: string, ms = 5000): Promise<PontoEvento> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = received.find((evento) => evento.id === id);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no event ${id} within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => controller.abort(),
  };
}

describe.skipIf(process.env.NOVUS_TEST_DB !== 'postgres')('two server processes on one database', () => {
  const database = `novus_two_${crypto.randomBytes(5).toString('hex')}`;
  const dirs: string[] = [];
  let admin: Database;
  let db: Database;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;

  beforeAll(async () => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) throw new Error('DATABASE_URL is required');
    admin = openPostgres({ connectionString: adminUrl });
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const env = (name: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `novus-${name}-`));
      dirs.push(dir);
      return {
        DATABASE_URL: url.toString(),
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        // One secret, so a session made on one server opens the other (as behind a load balancer).
        AUTH_SECRET: 'segredo-compartilhado-pelos-dois-servidores',
        ADMIN_LOGIN: ADMIN.login,
        ADMIN_PASSWORD: ADMIN.password,
        WEB_DIST: path.join(dir, 'sem-web'),
      };
    };
    // One after the other: each migrates the database it opens, and migrate() takes no lock (see the report).
    a = await startServer('A', env('a'));
    b = await startServer('B', env('b'));
    db = openPostgres({ connectionString: url.toString() });
  });

  afterAll(async () => {
    await Promise.all([stopServer(a), stopServer(b)]);
    await db?.close();
    if (admin) {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.close();
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows a unit sent through server A on a map served by server B, live and on reload', async () => {
    const [servidorA, servidorB] = [a, b];
    if (!servidorA || !servidorB) throw new Error('servers not started');
    const health = await call(servidorB, 'GET', '/api/health');
    expect(await health.json()).toEqual({ status: 'ok', banco: 'ok', fotos: 'ok' });

    // The first administrator, created by whichever server started first, sets the project up on A.
    const adminCookie = await login(servidorA, ADMIN.login, ADMIN.password);
    const cliente = await created<{ _id: string }>(
      await call(servidorA, 'POST', '/api/cliente', { cookie: adminCookie, json: { nome: 'Copel' } }),
    );
    const projeto = await created<{ _id: string; zonas: { _id: string; label: string }[] }>(
      await call(servidorA, 'POST', '/api/projeto', {
        cookie: adminCookie,
        form: {
          nome: 'Dois Servidores',
          cliente: cliente._id,
          fuso: '22',
          fluxos: ['hc'],
          kml: sample('zoneamento-curitiba.kml'),
        },
      }),
    );
    const centro = projeto.zonas.find((zona) => zona.label === 'Zona Centro')?._id ?? '';
    const usuario = (login: string, roles: string, zonas: string[]) =>
      call(servidorA, 'POST', '/api/user', {
        cookie: adminCookie,
        form: {
          login,
          firstName: login === 'tecnica' ? 'Ana' : 'Sara',
          lastName: 'Lima',
          password: SENHA,
          passwordConfirmation: SENHA,
          roles,
          zonas,
          cliente: cliente._id,
        },
      });
    await created(await usuario('tecnica', 'tecnico', [centro]));
    await created(await usuario('supervisora', 'supervisor', []));
    const tecnica = await login(servidorA, 'tecnica', SENHA);
    const supervisora = await login(servidorB, 'supervisora', SENHA);

    const eventos = await openEventos(
      `${servidorB.url}/api/projeto/${projeto._id}/mapa/eventos`,
      supervisora,
    );
    try {
      // B's stream answers before its LISTEN is in place (see the report): wait until a NOTIFY sent by a third
      // connection, this test's, comes through.
      const live = new PontosLive(db);
      const sonda = crypto.randomUUID();
      for (let attempt = 0; attempt < 50 && !eventos.received.some((e) => e.id === sonda); attempt++) {
        await live.publish({
          projeto: projeto._id,
          zona: centro,
          fluxo: 'hc',
          id: sonda,
          lat: 0,
          lng: 0,
          status: 0,
          tecnico: null,
          dataHora: null,
        });
        await eventos.waitFor(sonda, 100).catch(() => undefined);
      }
      await live.close();
      await eventos.waitFor(sonda, 0);

      const id = crypto.randomUUID();
      const dataHora = Date.UTC(2026, 10, 21, 12, 15);
      const enviado = Date.now();
      const upload = await call(servidorA, 'POST', '/api/unidade', {
        cookie: tecnica,
        multipart: multipart(
          {
            id,
            projeto: projeto._id,
            coordenadas: JSON.stringify({ lat: -25.435123, lng: -49.275123 }),
            dataHora: String(dataHora),
            // Accurate and in her zone: no quality flag (issue 24), so the status is 'collected' alone.
            precisao: '4',
            tipoUnidade: 'SDU',
            tipoEdificacao: 'Residencial',
            tipoImovel: 'RESIDENCIAL',
            numero: '10',
            quantidade: '1',
          },
          [{ field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: fakeJpeg() }],
        ),
      });
      expect(upload.status, await upload.clone().text()).toBe(201);

      const evento = await eventos.waitFor(id);
      expect(Date.now() - enviado).toBeLessThan(5000);
      expect(evento).toEqual({
        fluxo: 'hc',
        id,
        lat: -25.435123,
        lng: -49.275123,
        status: STATUS.coletado,
        tecnico: 'Ana Lima',
        dataHora,
      });

      const mapa = await call(servidorB, 'GET', `/api/projeto/${projeto._id}/mapa`, { cookie: supervisora });
      expect(mapa.status).toBe(200);
      const camadas = ((await mapa.json()) as MapaProjeto).camadas;
      expect(camadas).toEqual([
        { fluxo: 'hc', ids: expect.any(String), coords: [-25435123, -49275123], status: '1' },
      ]);
      expect(uuidFromCompact(camadas[0]?.ids ?? '')).toBe(id);
    } finally {
      eventos.close();
    }
  });
});
