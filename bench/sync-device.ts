// The server and the device of the sync benches (resume.ts, sync-link.ts): the server is buildApp on a fresh PGlite
// behind the bench's proxy; the device is the app's own sync engine (web/src/offline/sync.ts, Dexie on
// fake-indexeddb, HttpSyncTransport) with its own project and pending units of unique photos, over real HTTP.
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { openPglite } from '../server/src/db/database.ts';
import { fakeJpeg } from '../server/test/support/multipart.ts';
import { HttpSyncTransport } from '../web/src/api/sync-transport.ts';
import { NovusDatabase } from '../web/src/offline/db.ts';
import { RecordStore } from '../web/src/offline/records.ts';
import { SyncEngine, type SyncTransport } from '../web/src/offline/sync.ts';
import { BENCH_PASSWORD, benchAppWithAdmin, type buildBenchApp } from './support.ts';

type BenchApp = Awaited<ReturnType<typeof buildBenchApp>>;

/** The administrador's session and a client of its own, where the devices' projects go. */
export interface BenchBackOffice {
  app: BenchApp;
  cookie: string;
  cliente: string;
  /** Where the devices send their requests: the bench's proxy. */
  base: string;
}

async function benchBackOffice(
  app: BenchApp,
  login: string,
  base: string,
  nome: string,
): Promise<BenchBackOffice> {
  const loggedIn = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { login, password: BENCH_PASSWORD },
  });
  const cookie = `auth_token=${loggedIn.cookies.find((c) => c.name === 'auth_token')?.value ?? ''}`;
  const cliente = (
    await app.inject({ method: 'POST', url: '/api/cliente', headers: { cookie }, payload: { nome } })
  ).json()._id as string;
  return { app, cookie, cliente, base };
}

/** What a sync bench puts between the devices and the server. */
export interface BenchProxy {
  listen(): Promise<number>;
  close(): void;
}

/**
 * The server on a fresh PGlite (photos in a temporary folder), listening, behind the bench's proxy (made for the
 * server's port), with the administrador's session and a client `nome`.
 */
export async function syncBenchServer<P extends BenchProxy>(
  name: string,
  nome: string,
  proxyTo: (port: number) => P,
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `novus-bench-${name}-`));
  const db = await openPglite({});
  const { app, login } = await benchAppWithAdmin(db, path.join(dir, 'fotos'), name);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const proxy = proxyTo((app.server.address() as net.AddressInfo).port);
  const backOffice = await benchBackOffice(app, login, `http://127.0.0.1:${await proxy.listen()}`, nome);
  return {
    proxy,
    backOffice,
    /** The project's records on the server and their photos. */
    async stored(projeto: string) {
      const rows = await db.query<{ registros: number; fotos: number }>(
        `SELECT count(DISTINCT r.id)::int AS registros, count(f.hash)::int AS fotos
         FROM registros r LEFT JOIN fotos f ON f.registro = r.id WHERE r.projeto = $1`,
        [projeto],
      );
      return rows[0] ?? { registros: 0, fotos: 0 };
    },
    async close() {
      proxy.close();
      await app.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface BenchDeviceOptions {
  records: number;
  photosPerRecord: number;
  photoBytes: number;
  /** The engine's uploads in flight at once (its default when absent). */
  concurrency?: number;
  /** Another transport around the app's (an older app's). */
  transport?: (http: HttpSyncTransport) => SyncTransport;
}

const kml = fs.readFileSync(new URL('../docs/samples/zoneamento-curitiba.kml', import.meta.url), 'utf8');

/** A device with its own project and `records` units of unique photos, pending. */
export async function benchDevice(backOffice: BenchBackOffice, name: string, options: BenchDeviceOptions) {
  const { app, cookie, cliente, base } = backOffice;
  const projeto = (
    await app.inject({
      method: 'POST',
      url: '/api/projeto',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ nome: name, cliente, fuso: '22', fluxos: 'hc', kml }).toString(),
    })
  ).json() as { _id: string };
  const fetchFn: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    return fetch(new URL(String(input), base), { ...init, headers });
  };
  const http = new HttpSyncTransport(fetchFn);
  const local = new NovusDatabase(`bench-${name}`);
  const records = new RecordStore(local);
  const engine = new SyncEngine({
    db: local,
    records,
    // The administrador's getByUser lists every project: keep only this device's one.
    transport: onlyProjeto(options.transport?.(http) ?? http, projeto._id),
    flows: FLOWS,
    tecnico: 'Bench',
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
  for (let i = 0; i < options.records; i += 1) {
    await records.add(unidadeFlow, {
      projeto: projeto._id,
      dataHora: Date.UTC(2026, 10, 24, 8) + i * 60_000,
      coordenadas: { lat: -25.435, lng: -49.275 },
      fotos: Array.from(
        { length: options.photosPerRecord },
        () => new Blob([new Uint8Array(fakeJpeg(options.photoBytes))], { type: 'image/jpeg' }),
      ),
      dados: {
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero: String(i),
        quantidade: '1',
      },
    });
  }
  return { engine, records, projeto: projeto._id, local };
}

function onlyProjeto(transport: SyncTransport, id: string): SyncTransport {
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'getProjetos') return async () => (await target.getProjetos()).filter((p) => p.id === id);
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
