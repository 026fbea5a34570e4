// The authorization sweep (issue 12): every route of the built app × every kind of caller × an object of client A
// and of client B, against one table of expected statuses. The route table comes from the app itself, so a new
// route without an entry here (or an entry whose route is gone) fails. A refused request (401/403) must leave
// the database and the photo store exactly as they were.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDownload, type FlowDefinition } from '@novus/domain/flows/flow';
import { type Fluxo, FLUXOS } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY, FLOWS } from '@novus/domain/flows/registry';
import type { Role } from '@novus/domain/roles';
import { type Call, parsed, send } from './support/requests.ts';
import { CURITIBA_BBOX, solidPng, tileRange, tilesOverBbox, writePmtiles } from './support/pmtiles.ts';
import { collectRoutes } from './support/route-table.ts';
import {
  createSession,
  createTestContext,
  createWebApp,
  fakeJpeg,
  loginCookie,
  multipart,
  PASSWORD,
  sample,
  type TestContext,
} from './support/test-app.ts';

/** The kinds of caller, in the column order of every row below. */
const CALLERS = [
  'none',
  'tecnico', // tecnico of zone 'Zona Centro' of client A's project: the zone of A's records
  'tecnicoOutraZona', // tecnico of 'Zona Batel' of the same project
  'supervisorA',
  'supervisorB',
  'administrador',
  'interpretador',
  'externo',
] as const;
type Caller = (typeof CALLERS)[number];
type Side = 'A' | 'B';
/** Expected status per caller, in CALLERS order. */
type Row = readonly [number, number, number, number, number, number, number, number];

interface Entry {
  /** The request for the objects `o` of one client, as `caller` sends it. */
  call(o: Objects, caller: Caller, world: World): Call | Promise<Call>;
  expect: Record<Side, Row>;
}

// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
const CENTRO = { lat: -25.435, lng: -49.275 };
const DIA = '2026-11-21';
const DATA_HORA = String(Date.UTC(2026, 10, 21, 13, 0));

/** The seeded objects of one client. */
interface Objects {
  side: Side;
  cliente: string;
  projeto: string;
  projetoNome: string;
  /** Zona Centro of the project. */
  zona: string;
  /** A tecnico of the client, the object of the user routes (never a caller). */
  usuario: string;
  /** A unit collected in Zona Centro, with one photo (slot 0). */
  registro: string;
  /** That photo's bytes. */
  foto: Buffer;
}

/** What the entries need besides a client's objects, made once by the seeding. */
interface World {
  app: FastifyInstance;
  adminCookie: string;
  /** Logins of the callers (logout ends a session made for the purpose). */
  logins: Record<Exclude<Caller, 'none'>, string>;
  /** The database, for an entry that must clear what an earlier entry left (a second factor being set up). */
  db: TestContext['db'];
}

// The sweep's webhooks name this host's closed port (WEBHOOK below).
process.env.WEBHOOKS_ALLOW_PRIVATE = '1';

const unique = (prefix: string) => `${prefix}${crypto.randomUUID().slice(0, 8)}`;

const sdu = {
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero: '120',
  quantidade: '1',
};
const UNIDADE = FLOW_BY_KEY.hc;
const envelope = (o: Objects) => ({
  id: crypto.randomUUID(),
  projeto: o.projeto,
  coordenadas: JSON.stringify(CENTRO),
  dataHora: DATA_HORA,
});
/** A record upload as the app sends it, with one photo. */
const upload = (flow: FlowDefinition, fields: Record<string, string>, foto = fakeJpeg()): Call => ({
  method: 'POST',
  url: `/api/${flow.apiPath}`,
  body: multipart(fields, [{ field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: foto }]),
});
const projetoForm = (o: Objects, nome = o.projetoNome) => ({
  nome,
  cliente: o.cliente,
  fuso: '22',
  fluxos: [...FLUXOS],
  disponivelInterpres: String(o.side === 'A'),
});
const novoTecnico = (o: Objects) => ({
  login: unique('novo.tecnico.'),
  password: 'campo-1234',
  passwordConfirmation: 'campo-1234',
  roles: ['tecnico'],
  cliente: o.cliente,
  zonas: [o.zona],
});

// Rows. Columns:   none tec  tOZ  supA supB adm  int  ext
const everyone = (status: number): Row => [status, status, status, status, status, status, status, status];
const signedIn = (status: number): Row => [401, status, status, status, status, status, status, status];
const adminOnly = (status: number): Row => [401, 403, 403, 403, 403, status, 403, 403];
const both = (row: Row): Record<Side, Row> => ({ A: row, B: row });
/** Administradores and the supervisor of the object's client. */
const clienteReaders = (status = 200): Record<Side, Row> => ({
  A: [401, 403, 403, status, 403, status, 403, 403],
  B: [401, 403, 403, 403, status, status, 403, 403],
});
const SUPERVISOR_B = clienteReaders().B;
/** Back-office readers of a project: A's is available to Interpres, B's is not. */
const projetoReaders: Record<Side, Row> = { A: [401, 403, 403, 200, 403, 200, 200, 200], B: SUPERVISOR_B };
/** Records and photos: the technician of the record's zone, administradores and the client's supervisor. */
const registroReaders = (status = 200): Record<Side, Row> => ({
  A: [401, status, 403, status, 403, status, 403, 403],
  B: [401, 403, 403, 403, status, status, 403, 403],
});
/** The review (issue 24): whoever reads the project in the back office (A is an Interpres project). */
const revisaoReaders: Record<Side, Row> = { A: [401, 403, 403, 200, 403, 200, 200, 200], B: SUPERVISOR_B };
/** Its decisions: the same but the externo, who only reads. */
const revisores: Record<Side, Row> = { A: [401, 403, 403, 200, 403, 200, 200, 403], B: SUPERVISOR_B };
/** The supervisor map: a technician of any zone of the project sees the points of their zones. */
const mapaReaders: Record<Side, Row> = { A: [401, 200, 200, 200, 403, 200, 403, 403], B: SUPERVISOR_B };

/**
 * Uploads: technicians of a zone of the project (any zone of it: DESIGN.md 'Technicians upload to projects
 * holding one of their zones'; the record lands in the zone containing it) and administradores. Units get a
 * complete record (201); the other flows get the envelope and a photo only, which the flow's schema refuses
 * with 400 once the caller was admitted (`admitted`), so a refused caller (403/401) is told apart.
 */
const uploaders = (admitted: number): Record<Side, Row> => ({
  A: [401, admitted, admitted, 403, 403, admitted, 403, 403],
  B: [401, 403, 403, 403, 403, admitted, 403, 403],
});

const byProjectKey = (flow: FlowDefinition, o: Objects) =>
  flow.byProject?.by === 'id' ? o.projeto : encodeURIComponent(o.projetoNome);

/**
 * What an admitted uploader gets per flow: units are sent complete; fiscalização's fields are all optional, so
 * its envelope alone is a record; the other flows refuse the envelope alone (400, after the access check).
 */
const UPLOAD_ADMITTED: Partial<Record<Fluxo, number>> = { hc: 201, fiscalizacao: 201 };

function flowEntries(flow: FlowDefinition): Record<string, Entry> {
  const base = `/api/${flow.apiPath}`;
  const entries: Record<string, Entry> = {
    [`POST ${base}`]: {
      call: (o) => upload(flow, { ...envelope(o), ...(flow.key === 'hc' ? sdu : {}) }),
      expect: uploaders(UPLOAD_ADMITTED[flow.key] ?? 400),
    },
    [`GET ${base}/getByData`]: {
      call: (o) => ({
        method: 'GET',
        url: `${base}/getByData?nomeProjeto=${encodeURIComponent(o.projetoNome)}&data=${DIA}`,
      }),
      expect: projetoReaders,
    },
    [`GET ${base}/getByPeriodo`]: {
      call: (o) => ({
        method: 'GET',
        url: `${base}/getByPeriodo?nomeProjeto=${encodeURIComponent(o.projetoNome)}&dataInicio=${DIA}&dataFim=${DIA}`,
      }),
      expect: projetoReaders,
    },
    // The photos of a unit: asked under another flow, an admitted caller gets 404 (the record is not of it).
    [`GET ${base}/:id/fotos`]: {
      call: (o) => ({ method: 'GET', url: `${base}/${o.registro}/fotos` }),
      expect: registroReaders(flow.key === 'hc' ? 200 : 404),
    },
    [`GET ${base}/:projeto/kml`]: {
      call: (o) => ({ method: 'GET', url: `${base}/${o.projeto}/kml` }),
      expect: clienteReaders(),
    },
  };
  if (flow.byZona) {
    entries[`GET ${base}/getByZona`] = {
      call: (o) => ({ method: 'GET', url: `${base}/getByZona?id=${o.zona}` }),
      expect: registroReaders(),
    };
  }
  if (flow.byProject) {
    // A flow the devices download by project (LPT Agiltec) also answers the technicians of any of its zones.
    const devices = deviceDownload(flow) === 'projeto' ? 200 : 403;
    entries[`GET /api/${flow.byProject.path}`] = {
      call: (o) => ({
        method: 'GET',
        url: `/api/${flow.byProject?.path.replace(':projeto', byProjectKey(flow, o))}`,
      }),
      expect: { A: [401, devices, devices, 200, 403, 200, 200, 200], B: SUPERVISOR_B },
    };
  }
  return entries;
}

/** A basemap package over the sample zones (zoom 14), and the request that uploads it. */
const MAPA_ZOOM = 14;
const MAPA_TILE = tileRange(CURITIBA_BBOX, MAPA_ZOOM);
const mapaUpload = (o: Objects): Call => ({
  method: 'PUT',
  url: `/api/projeto/${o.projeto}/mapa-base`,
  body: {
    payload: Buffer.from(
      writePmtiles({
        tiles: tilesOverBbox(CURITIBA_BBOX, [MAPA_ZOOM], () => solidPng([0, 128, 0], 8)),
        tileType: 'png',
        bounds: CURITIBA_BBOX,
      }),
    ),
    headers: { 'content-type': 'application/vnd.pmtiles' },
  },
});

/** The client's project has its package before it is read (a removal in the table may have taken it). */
async function withMapa(world: Pick<World, 'app' | 'adminCookie'>, o: Objects): Promise<void> {
  const read = await send(
    world.app,
    { method: 'GET', url: `/api/projeto/${o.projeto}/mapa-base` },
    world.adminCookie,
  );
  if (read.statusCode === 404) await adminSend(world, mapaUpload(o));
}

/** A request of the administrador's that must succeed (seeding, spare objects); its JSON. */
async function adminSend<T = { _id: string }>(world: Pick<World, 'app' | 'adminCookie'>, call: Call) {
  const response = await send(world.app, call, world.adminCookie);
  if (response.statusCode >= 300) throw new Error(`${call.method} ${call.url}: ${response.body}`);
  return parsed<T>(response);
}

/**
 * The sweep's webhook: a closed port of this host (WEBHOOKS_ALLOW_PRIVATE=1 is set before the app). One at a time
 * per project, removed before the next, so no delivery's attempt changes the database under a refused request.
 */
const WEBHOOK = { url: 'http://127.0.0.1:9/gancho', eventos: ['revisão'] };

async function withoutWebhooks(world: Pick<World, 'app' | 'adminCookie'>, o: Objects): Promise<void> {
  const url = `/api/projeto/${o.projeto}/webhooks`;
  const list = parsed<{ _id: string }[]>(await send(world.app, { method: 'GET', url }, world.adminCookie));
  for (const { _id } of list) await adminSend(world, { method: 'DELETE', url: `/api/webhook/${_id}` });
}

/** A new webhook of the project, made by the administrador after removing any other; its id. */
async function withWebhook(world: Pick<World, 'app' | 'adminCookie'>, o: Objects): Promise<string> {
  await withoutWebhooks(world, o);
  return (
    await adminSend(world, { method: 'POST', url: `/api/projeto/${o.projeto}/webhooks`, json: WEBHOOK })
  )._id;
}

// The table: every route of the app, keyed as Fastify names it.
const TABLE: Record<string, Entry> = {
  // Public: the app shell and its files, the tiles, health and config, login, logout, the app's error log.
  'GET /': { call: () => ({ method: 'GET', url: '/' }), expect: both(everyone(200)) },
  'GET /index.html': { call: () => ({ method: 'GET', url: '/index.html' }), expect: both(everyone(200)) },
  'GET /assets/app-abc123.js': {
    call: () => ({ method: 'GET', url: '/assets/app-abc123.js' }),
    expect: both(everyone(200)),
  },
  'GET /*': { call: () => ({ method: 'GET', url: '/backoffice/cliente' }), expect: both(everyone(200)) },
  'GET /tiles/*': { call: () => ({ method: 'GET', url: '/tiles/19/1/2.png' }), expect: both(everyone(200)) },
  'GET /api/health': { call: () => ({ method: 'GET', url: '/api/health' }), expect: both(everyone(200)) },
  'GET /api/config': { call: () => ({ method: 'GET', url: '/api/config' }), expect: both(everyone(200)) },
  'POST /api/auth/login': {
    call: (_o, _caller, world) => ({
      method: 'POST',
      url: '/api/auth/login',
      json: { login: world.logins.interpretador, password: PASSWORD },
    }),
    expect: both(everyone(200)),
  },
  // Each caller ends a session made for the purpose (ending their own would log them out of the sweep).
  'POST /api/auth/logout': {
    call: async (_o, caller, world) => ({
      method: 'POST',
      url: '/api/auth/logout',
      ...(caller === 'none' ? {} : { cookie: await loginCookie(world.app, world.logins[caller]) }),
    }),
    expect: both(everyone(204)),
  },
  // A technician whose session expired still reports why the sync failed.
  'POST /api/logger': {
    call: () => ({ method: 'POST', url: '/api/logger', json: { message: 'Falha na sincronização (teste)' } }),
    expect: both(everyone(204)),
  },
  'GET /api/auth/me': { call: () => ({ method: 'GET', url: '/api/auth/me' }), expect: both(signedIn(200)) },
  // 'Verificação em duas etapas' (issue 42): one's own, without turning it on (the sweep's logins stay password only).
  'GET /api/conta/segundo-fator': {
    call: () => ({ method: 'GET', url: '/api/conta/segundo-fator' }),
    expect: both(signedIn(200)),
  },
  'POST /api/conta/segundo-fator': {
    call: () => ({ method: 'POST', url: '/api/conta/segundo-fator' }),
    expect: both(signedIn(200)),
  },
  // Nothing being set up (cleared here): 409, and no wrong code counted against the sweep's address.
  'POST /api/conta/segundo-fator/confirmar': {
    call: async (_o, caller, world) => {
      if (caller !== 'none') {
        await world.db.query('UPDATE usuarios SET totp_pendente = NULL WHERE login = $1', [
          world.logins[caller],
        ]);
      }
      return { method: 'POST', url: '/api/conta/segundo-fator/confirmar', json: { codigo: '123456' } };
    },
    expect: both(signedIn(409)),
  },
  'POST /api/conta/segundo-fator/desativar': {
    call: () => ({ method: 'POST', url: '/api/conta/segundo-fator/desativar', json: { codigo: '123456' } }),
    expect: both(signedIn(204)),
  },
  'POST /api/auth/segundo-fator': {
    call: (_o, _caller, world) => ({
      method: 'POST',
      url: '/api/auth/segundo-fator',
      json: { login: world.logins.interpretador, password: PASSWORD },
    }),
    expect: both(everyone(200)),
  },
  'GET /api/user/:id/segundo-fator': {
    call: (o) => ({ method: 'GET', url: `/api/user/${o.usuario}/segundo-fator` }),
    expect: both(adminOnly(200)),
  },
  'DELETE /api/user/:id/segundo-fator': {
    call: (o) => ({ method: 'DELETE', url: `/api/user/${o.usuario}/segundo-fator` }),
    expect: both(adminOnly(204)),
  },
  'GET /api/configuracoes/seguranca': {
    call: () => ({ method: 'GET', url: '/api/configuracoes/seguranca' }),
    expect: both(adminOnly(200)),
  },
  'PUT /api/configuracoes/seguranca': {
    call: () => ({
      method: 'PUT',
      url: '/api/configuracoes/seguranca',
      json: { segundoFatorObrigatorio: false },
    }),
    expect: both(adminOnly(200)),
  },

  // Clients.
  'GET /api/cliente': {
    call: () => ({ method: 'GET', url: '/api/cliente' }),
    expect: both([401, 403, 403, 200, 200, 200, 403, 403]),
  },
  'GET /api/cliente/:id': {
    call: (o) => ({ method: 'GET', url: `/api/cliente/${o.cliente}` }),
    expect: clienteReaders(),
  },
  'POST /api/cliente': {
    call: () => ({ method: 'POST', url: '/api/cliente', json: { nome: unique('Cliente novo ') } }),
    expect: both(adminOnly(201)),
  },
  'PUT /api/cliente/:id': {
    call: (o) => ({
      method: 'PUT',
      url: `/api/cliente/${o.cliente}`,
      json: { nome: `Cliente ${o.side}` },
    }),
    expect: both(adminOnly(200)),
  },
  // Both clients are in use: even the administrador's delete is refused, with 409.
  'DELETE /api/cliente/:id': {
    call: (o) => ({ method: 'DELETE', url: `/api/cliente/${o.cliente}` }),
    expect: both(adminOnly(409)),
  },

  // Projects.
  'GET /api/projeto': {
    call: () => ({ method: 'GET', url: '/api/projeto' }),
    expect: both([401, 403, 403, 200, 200, 200, 200, 200]),
  },
  'GET /api/projeto/:id': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}` }),
    expect: projetoReaders,
  },
  'GET /api/projeto/getByUser': {
    call: () => ({ method: 'GET', url: '/api/projeto/getByUser' }),
    expect: both(signedIn(200)),
  },
  'GET /api/projeto/getByCliente/:clienteId': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/getByCliente/${o.cliente}` }),
    expect: clienteReaders(),
  },
  'POST /api/projeto': {
    call: (o) => ({
      method: 'POST',
      url: '/api/projeto',
      form: projetoForm(o, unique('Projeto novo ')),
    }),
    expect: both(adminOnly(201)),
  },
  'PUT /api/projeto/:id': {
    call: (o) => ({ method: 'PUT', url: `/api/projeto/${o.projeto}`, form: projetoForm(o) }),
    expect: both(adminOnly(200)),
  },
  // The administrador deletes a spare project of the client; everyone else tries the real one.
  'DELETE /api/projeto/:id': {
    call: async (o, caller, world) => {
      if (caller !== 'administrador') return { method: 'DELETE', url: `/api/projeto/${o.projeto}` };
      const spare = await adminSend(world, {
        method: 'POST',
        url: '/api/projeto',
        form: projetoForm(o, unique('Descartável ')),
      });
      return { method: 'DELETE', url: `/api/projeto/${spare._id}` };
    },
    expect: both(adminOnly(200)),
  },
  'GET /api/projeto/:id/mapa': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/mapa` }),
    expect: mapaReaders,
  },
  'GET /api/projeto/:id/mapa/grade': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/mapa/grade?z=12&tiles=1493:2296` }),
    expect: mapaReaders,
  },
  'GET /api/projeto/:nome/estatistica': {
    call: (o) => ({
      method: 'GET',
      url: `/api/projeto/${encodeURIComponent(o.projetoNome)}/estatistica`,
    }),
    expect: mapaReaders,
  },
  // The basemap package (issue 23): read by whoever sees the project's map, written by administradores.
  'GET /api/projeto/:id/mapa-base': {
    call: async (o, _caller, world) => {
      await withMapa(world, o);
      return { method: 'GET', url: `/api/projeto/${o.projeto}/mapa-base` };
    },
    expect: mapaReaders,
  },
  'GET /api/projeto/:id/mapa-base/:z/:x/:y': {
    call: async (o, _caller, world) => {
      await withMapa(world, o);
      return {
        method: 'GET',
        url: `/api/projeto/${o.projeto}/mapa-base/${MAPA_ZOOM}/${MAPA_TILE.minX}/${MAPA_TILE.minY}`,
      };
    },
    expect: mapaReaders,
  },
  'PUT /api/projeto/:id/mapa-base': { call: (o) => mapaUpload(o), expect: both(adminOnly(200)) },
  // An address of this host: refused (422) to the administrador, as MAPA_BASE_ALLOW_PRIVATE is not set.
  'PUT /api/projeto/:id/mapa-base/url': {
    call: (o) => ({
      method: 'PUT',
      url: `/api/projeto/${o.projeto}/mapa-base/url`,
      json: { url: 'http://127.0.0.1:9/mapa.pmtiles' },
    }),
    expect: both(adminOnly(422)),
  },
  'DELETE /api/projeto/:id/mapa-base': {
    call: async (o, _caller, world) => {
      await withMapa(world, o);
      return { method: 'DELETE', url: `/api/projeto/${o.projeto}/mapa-base` };
    },
    expect: both(adminOnly(204)),
  },
  'GET /api/projeto/:id/mapa/eventos': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/mapa/eventos`, stream: true }),
    expect: mapaReaders,
  },

  // Users: administradores only.
  'GET /api/user': { call: () => ({ method: 'GET', url: '/api/user' }), expect: both(adminOnly(200)) },
  'GET /api/user/:id': {
    call: (o) => ({ method: 'GET', url: `/api/user/${o.usuario}` }),
    expect: both(adminOnly(200)),
  },
  // The audit log of back-office writes.
  'GET /api/auditoria': {
    call: () => ({ method: 'GET', url: '/api/auditoria' }),
    expect: both(adminOnly(200)),
  },
  'GET /api/docs': {
    call: () => ({ method: 'GET', url: '/api/docs' }),
    expect: both(adminOnly(200)),
  },
  'GET /api/docs/openapi.json': {
    call: () => ({ method: 'GET', url: '/api/docs/openapi.json' }),
    expect: both(adminOnly(200)),
  },
  'POST /api/user': {
    call: (o) => ({ method: 'POST', url: '/api/user', json: novoTecnico(o) }),
    expect: both(adminOnly(201)),
  },
  'PUT /api/user/:id': {
    call: (o) => ({
      method: 'PUT',
      url: `/api/user/${o.usuario}`,
      json: { firstName: 'Téc', roles: ['tecnico'], cliente: o.cliente, zonas: [o.zona] },
    }),
    expect: both(adminOnly(200)),
  },
  'DELETE /api/user/:id': {
    call: async (o, caller, world) => {
      if (caller !== 'administrador') return { method: 'DELETE', url: `/api/user/${o.usuario}` };
      const spare = await adminSend(world, { method: 'POST', url: '/api/user', json: novoTecnico(o) });
      return { method: 'DELETE', url: `/api/user/${spare._id}` };
    },
    expect: both(adminOnly(200)),
  },

  // Records of any flow, and photo bytes.
  // Resumable sync: which of these photos (by SHA-256) the server holds; asked by those who may upload.
  'POST /api/fotos/existem': {
    call: () => ({
      method: 'POST',
      url: '/api/fotos/existem',
      json: { hashes: [crypto.createHash('sha256').update('nenhuma foto').digest('hex')] },
    }),
    expect: both([401, 200, 200, 403, 403, 200, 403, 403]),
  },
  'GET /api/registro/:id': {
    call: (o) => ({ method: 'GET', url: `/api/registro/${o.registro}` }),
    expect: registroReaders(),
  },
  // Issue 39: the back office deletes a record, remembered (the administrador a spare unit of the client's).
  'DELETE /api/registro/:id': {
    call: async (o, caller, world) => {
      if (caller !== 'administrador') return { method: 'DELETE', url: `/api/registro/${o.registro}` };
      const spare = await adminSend(world, upload(UNIDADE, { ...envelope(o), ...sdu }));
      return { method: 'DELETE', url: `/api/registro/${spare._id}` };
    },
    expect: both(adminOnly(200)),
  },
  // What the phone kept the server lacks: asked by those who may upload (they hear only of their own records).
  'POST /api/registros/conferir': {
    call: (o) => ({
      method: 'POST',
      url: '/api/registros/conferir',
      json: {
        registros: [
          { id: o.registro, fluxo: 'hc', fotos: [crypto.createHash('sha256').update(o.foto).digest('hex')] },
        ],
      },
    }),
    expect: both([401, 200, 200, 403, 403, 200, 403, 403]),
  },
  // A held record's lost photo files given back: its own technician (A's unit was sent by the tecnico, B's by the
  // administrador) and administradores.
  'POST /api/registros/:id/fotos': {
    call: (o) => ({
      method: 'POST',
      url: `/api/registros/${o.registro}/fotos`,
      body: multipart({}, [{ field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: o.foto }]),
    }),
    expect: {
      A: [401, 200, 403, 403, 403, 200, 403, 403],
      B: [401, 403, 403, 403, 403, 200, 403, 403],
    },
  },
  'GET /api/fotos/:registro/:slot': {
    call: (o) => ({ method: 'GET', url: `/api/fotos/${o.registro}/0` }),
    // The review (issue 24) shows photos to the interpretador and externo of Interpres projects (A's).
    expect: { ...registroReaders(), A: [401, 200, 403, 200, 403, 200, 200, 200] },
  },
  // The change feed (issue 27): whoever reads the project in the back office.
  'GET /api/alteracoes': {
    call: (o) => ({ method: 'GET', url: `/api/alteracoes?projeto=${o.projeto}` }),
    expect: projetoReaders,
  },
  // The review (issue 24): the back office that reads the project; decisions not by the externo.
  'GET /api/revisao': {
    call: (o) => ({ method: 'GET', url: `/api/revisao?projeto=${o.projeto}` }),
    expect: revisaoReaders,
  },
  'GET /api/revisao/:id/historico': {
    call: (o) => ({ method: 'GET', url: `/api/revisao/${o.registro}/historico` }),
    expect: revisaoReaders,
  },
  'POST /api/revisao/:id': {
    call: (o) => ({
      method: 'POST',
      url: `/api/revisao/${o.registro}`,
      json: { estado: 'aprovado', versao: 1 },
    }),
    expect: revisores,
  },
  'POST /api/revisao/aprovar': {
    call: (o) => ({ method: 'POST', url: '/api/revisao/aprovar', json: { projeto: o.projeto } }),
    expect: revisores,
  },
  'GET /api/projeto/:id/qualidade': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/qualidade` }),
    expect: revisaoReaders,
  },
  'PUT /api/projeto/:id/qualidade': {
    call: (o) => ({
      method: 'PUT',
      url: `/api/projeto/${o.projeto}/qualidade`,
      json: { precisaoMaxima: 15, distanciaDuplicata: 2 },
    }),
    expect: both([401, 403, 403, 403, 403, 200, 403, 403]),
  },
  'GET /api/correcoes': {
    call: () => ({ method: 'GET', url: '/api/correcoes' }),
    expect: both([401, 200, 200, 403, 403, 403, 403, 403]),
  },
  // 'Exportar pendentes' read back: a file that is no zip gets the administrador a 400, anyone else is refused.
  'POST /api/pendentes/importar': {
    call: () => ({
      method: 'POST',
      url: '/api/pendentes/importar',
      body: multipart({}, [
        { field: 'arquivo', filename: 'pendentes.zip', contentType: 'application/zip', data: fakeJpeg() },
      ]),
    }),
    expect: both(adminOnly(400)),
  },
  ...Object.assign({}, ...FLOWS.map(flowEntries)),

  // Extraction and reports: administradores and the client's supervisor.
  'GET /api/projeto/:id/datas': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/datas` }),
    expect: clienteReaders(),
  },
  'GET /api/extrator/:projeto': {
    call: (o) => ({ method: 'GET', url: `/api/extrator/${o.projeto}` }),
    expect: clienteReaders(),
  },
  'GET /api/extrator/:projeto/:arquivo': {
    call: (o) => ({ method: 'GET', url: `/api/extrator/${o.projeto}/unidades.csv` }),
    expect: clienteReaders(),
  },
  'GET /api/relatorio/:projeto': {
    call: (o) => ({ method: 'GET', url: `/api/relatorio/${o.projeto}?data=${DIA}` }),
    expect: clienteReaders(),
  },
  'GET /api/relatorio/:projeto/produtividade': {
    call: (o) => ({ method: 'GET', url: `/api/relatorio/${o.projeto}/produtividade` }),
    expect: clienteReaders(),
  },
  'GET /api/relatorio/:projeto/:arquivo': {
    call: (o) => ({ method: 'GET', url: `/api/relatorio/${o.projeto}/produtividade.csv` }),
    expect: clienteReaders(),
  },
  // Webhooks (issue 27): the administrador's alone, each call on a webhook of the project made for it (a delivery
  // that does not exist is a 404 past the roles). Last in the table: the webhooks left are never sent a change.
  'GET /api/projeto/:id/webhooks': {
    call: (o) => ({ method: 'GET', url: `/api/projeto/${o.projeto}/webhooks` }),
    expect: both(adminOnly(200)),
  },
  'POST /api/projeto/:id/webhooks': {
    call: async (o, _caller, world) => {
      await withoutWebhooks(world, o);
      return { method: 'POST', url: `/api/projeto/${o.projeto}/webhooks`, json: WEBHOOK };
    },
    expect: both(adminOnly(201)),
  },
  'DELETE /api/webhook/:id': {
    call: async (o, _caller, world) => ({
      method: 'DELETE',
      url: `/api/webhook/${await withWebhook(world, o)}`,
    }),
    expect: both(adminOnly(200)),
  },
  'GET /api/webhook/:id/entregas': {
    call: async (o, _caller, world) => ({
      method: 'GET',
      url: `/api/webhook/${await withWebhook(world, o)}/entregas`,
    }),
    expect: both(adminOnly(200)),
  },
  'POST /api/webhook/:id/entregas/:entrega/reenviar': {
    call: async (o, _caller, world) => ({
      method: 'POST',
      url: `/api/webhook/${await withWebhook(world, o)}/entregas/${crypto.randomUUID()}/reenviar`,
    }),
    expect: both(adminOnly(404)),
  },
};

describe('authorization of every route', () => {
  let ctx: TestContext;
  let world: World;
  const table = collectRoutes();
  const cookies: Partial<Record<Caller, string>> = {};
  const objects: Partial<Record<Side, Objects>> = {};
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-authz-dist-'));
  let tables: string[] = [];

  /**
   * What a refused request must not change: per table its row count and newest row version (xmin: an insert or
   * an update makes a new one), and the photo files.
   */
  async function snapshot(): Promise<string> {
    const rows = await ctx.db.query<{ digest: string }>(
      `SELECT concat_ws('|', ${tables
        .map((name) => `(SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM "${name}")`)
        .join(', ')}) AS digest`,
    );
    const photos = fs
      .readdirSync(ctx.blobDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile()).length;
    return `${rows[0]?.digest}|${photos}`;
  }

  /** A client with a project (zoned by the sample KML) and a tecnico, the object of the user routes. */
  async function makeSide(side: Side): Promise<{ objects: Objects; batel: string }> {
    const nome = `Cliente ${side}`;
    const cliente = (await adminSend(world, { method: 'POST', url: '/api/cliente', json: { nome } }))._id;
    const o: Objects = {
      side,
      cliente,
      projeto: '',
      projetoNome: `Projeto ${side}`,
      zona: '',
      usuario: '',
      registro: '',
      foto: Buffer.alloc(0),
    };
    const projeto = await adminSend<{ _id: string; zonas: { _id: string; label: string }[] }>(world, {
      method: 'POST',
      url: '/api/projeto',
      form: { ...projetoForm(o), kml: sample('zoneamento-curitiba.kml') },
    });
    const zona = (label: string) => projeto.zonas.find((z) => z.label === label)?._id ?? '';
    o.projeto = projeto._id;
    o.zona = zona('Zona Centro');
    o.usuario = (await adminSend(world, { method: 'POST', url: '/api/user', json: novoTecnico(o) }))._id;
    return { objects: o, batel: zona('Zona Batel') };
  }

  /** A unit in Zona Centro of the client's project, with one photo. */
  async function seedRegistro(o: Objects, cookie: string | undefined): Promise<void> {
    const foto = fakeJpeg();
    const response = await send(world.app, upload(UNIDADE, { ...envelope(o), ...sdu }, foto), cookie);
    if (response.statusCode !== 201) throw new Error(`seed upload: ${response.body}`);
    o.registro = parsed<{ _id: string }>(response)._id;
    o.foto = foto;
  }

  async function makeCaller(
    name: Exclude<Caller, 'none'>,
    roles: Role[],
    cliente?: string,
    zonas: string[] = [],
  ) {
    const { user, cookie } = await createSession(world.app, ctx.db, {
      roles,
      ...(cliente ? { cliente } : {}),
      zonas,
    });
    world.logins[name] = user.login;
    cookies[name] = cookie;
  }

  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, 'tiles', '19', '1'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Novus</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    ctx = await createTestContext();
    const app = await createWebApp(ctx, dist, table.onRoute);
    // Written after the start, so /tiles/* serves it (a file found at start would get a route of its own).
    fs.writeFileSync(path.join(dist, 'tiles', '19', '1', '2.png'), fakeJpeg(64));
    // Every table of the schema but PostGIS's reference data.
    tables = (
      await ctx.db.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'spatial_ref_sys'
         ORDER BY table_name`,
      )
    ).map((row) => row.name);

    // The callers' logins are filled in by makeCaller, the administrador's first.
    world = { app, db: ctx.db, adminCookie: '', logins: {} as World['logins'] };
    await makeCaller('administrador', ['administrador']);
    world.adminCookie = cookies.administrador ?? '';
    const a = await makeSide('A');
    const b = await makeSide('B');
    objects.A = a.objects;
    objects.B = b.objects;
    await makeCaller('tecnico', ['tecnico'], a.objects.cliente, [a.objects.zona]);
    await makeCaller('tecnicoOutraZona', ['tecnico'], a.objects.cliente, [a.batel]);
    await makeCaller('supervisorA', ['supervisor'], a.objects.cliente);
    await makeCaller('supervisorB', ['supervisor'], b.objects.cliente);
    await makeCaller('interpretador', ['interpretador']);
    await makeCaller('externo', ['externo']);
    await seedRegistro(a.objects, cookies.tecnico);
    await seedRegistro(b.objects, cookies.administrador);
  });
  afterAll(async () => {
    await world?.app.close();
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('has one entry for every route of the app, and a route for every entry', () => {
    // HEAD routes are Fastify's copies of the GET ones (same hooks and handler).
    const routes = table.routes.filter((route) => !route.startsWith('HEAD '));
    const heads = table.routes
      .filter((route) => route.startsWith('HEAD '))
      .map((route) => route.replace(/^HEAD/, 'GET'));
    expect(
      heads.filter((head) => !routes.includes(head)),
      'HEAD routes without a GET',
    ).toEqual([]);
    expect(
      routes.filter((route) => !(route in TABLE)),
      'routes of the app missing from TABLE',
    ).toEqual([]);
    expect(
      Object.keys(TABLE).filter((key) => !routes.includes(key)),
      'TABLE entries with no route',
    ).toEqual([]);
  });

  it.each(Object.keys(TABLE))('%s', async (key) => {
    const entry = TABLE[key];
    if (!entry) throw new Error(key);
    const actual: Record<Side, number[]> = { A: [], B: [] };
    for (const side of ['A', 'B'] as const) {
      const o = objects[side];
      if (!o) throw new Error(`client ${side} not seeded`);
      for (const who of CALLERS) {
        const call = await entry.call(o, who, world);
        const label = `${key} as ${who} on ${side}'s object`;
        const expected = entry.expect[side][CALLERS.indexOf(who)];
        const before = expected === 401 || expected === 403 ? await snapshot() : undefined;
        table.reset();
        const response = await send(world.app, call, cookies[who]);
        actual[side].push(response.statusCode);
        expect(table.matched(), `${label}: answered by another route`).toBe(key);
        if (response.statusCode >= 400) {
          expect(parsed<{ message?: string }>(response).message, label).toBeTruthy();
        }
        if (before !== undefined && response.statusCode === expected) {
          expect(await snapshot(), `${label}: a refused request changed stored data`).toBe(before);
        }
      }
    }
    expect(actual).toEqual({ A: [...entry.expect.A], B: [...entry.expect.B] });
  });

  // The record id is the upload's idempotency key: a replay answers the stored record, so an id of another
  // client's record must not hand that record over (nor change it).
  it("refuses an upload under the id of another client's record, and shows nothing of it", async () => {
    const { A, B } = objects;
    if (!A || !B) throw new Error('clients not seeded');
    for (const who of ['tecnico', 'administrador'] as const) {
      const before = await snapshot();
      const response = await send(
        world.app,
        upload(UNIDADE, { ...envelope(A), id: B.registro, ...sdu }),
        cookies[who],
      );
      expect(response.statusCode, who).toBe(409);
      expect(response.body).not.toContain(B.projeto);
      expect(await snapshot(), who).toBe(before);
    }
  });
});
