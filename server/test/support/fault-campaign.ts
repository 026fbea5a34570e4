// The fault campaign (issue 12): the device's real sync engine (web/src/offline/sync.ts over its Dexie database,
// in fake-indexeddb) against the real server over real HTTP, every request of it drawn a fault at random by a
// seeded PRNG. After every run each collection the device made is on the server exactly once, with its photos
// byte-identical, and the device holds nothing pending that the server has and dropped nothing it lacks.
import 'fake-indexeddb/auto';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import { HttpSyncTransport } from '../../../web/src/api/sync-transport.ts';
import { NovusDatabase } from '../../../web/src/offline/db.ts';
import { type LocalColeta, RecordStore } from '../../../web/src/offline/records.ts';
import { SessionExpiredError, SyncEngine, type SyncResult } from '../../../web/src/offline/sync.ts';
import { fakeJpeg } from './multipart.ts';
import {
  createCliente,
  createUser,
  FORM,
  formBody,
  loginCookie,
  PASSWORD,
  sample,
  type TestContext,
} from './test-app.ts';

export const FAULT_KINDS = [
  'requestLost',
  'responseLost',
  'portal',
  'http500',
  'http502',
  'http503',
  'expired',
  'cutRequest',
  'cutResponse',
  'slow',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface CampaignCounts {
  runs: number;
  records: number;
  photos: number;
  requests: number;
  syncs: number;
  reauths: number;
  photosNotResent: number;
  faults: Record<FaultKind, number>;
  /** Collections the server does not hold after a run (or the device dropped before the server had them). */
  lost: number;
  /** Collections the server holds more than once. */
  duplicated: number;
  /** Photos missing or whose stored bytes differ from the device's. */
  photoMismatches: number;
  /** Records still pending on the device after the clean sync. */
  pendingLeft: number;
  /** What went wrong, for the report (empty when nothing did). */
  problems: string[];
}

/** mulberry32: small, seeded, reproducible. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
const CENTRO = { lat: -25.435, lng: -49.275 };

/** Valid fields of each flow, as a technician fills them in. */
const DADOS: Record<string, Record<string, unknown>> = {
  hc: {
    tipoUnidade: 'SDU',
    tipoEdificacao: 'Residencial',
    tipoImovel: 'RESIDENCIAL',
    numero: '10',
    quantidade: '1',
  },
  poste: {
    tipo: 'CONCRETO DUPLO T',
    altura: '11',
    carga: '300',
    tipoRedeEletrica: 'MISTA',
    equipamentoRedeEnergia: 'NAO POSSUI',
  },
  ip: { possuiIP: true },
  arvore: { altura: '7' },
  lpt: { qtdCasas: '4' },
  grupoA: { uc: '123456', medidor: 'M-9' },
  bdgd: { ativo: 'Poste' },
  fiscalizacao: {},
  lpt2: { telefoneAtualizado: '(42) 98888-1234', possuiCasa: 'Sim' },
};

/** One collection made on the device during a run, and what it must become on the server. */
interface Made {
  flow: FlowDefinition;
  id: string;
  coletaId: string;
  /** SHA-256 of each photo by slot. */
  fotos: Map<number, string>;
}

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A network error as fetch gives it. */
const networkError = (what: string) => new TypeError(`fetch failed (${what})`);

class FaultyNetwork {
  /** Probability that a request meets a fault; 0 for the clean sync. */
  rate = 0;
  cookie = '';
  requests = 0;
  /** Photos a retry named by their SHA-256 instead of sending their bytes again (resumable sync). */
  photosNotResent = 0;
  readonly faults = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;

  constructor(
    private readonly base: string,
    private readonly random: () => number,
  ) {}

  readonly fetch: typeof fetch = async (input, init = {}) => {
    this.requests += 1;
    const url = new URL(String(input), this.base);
    const method = (init.method ?? 'GET').toUpperCase();
    const fault = this.random() < this.rate ? this.draw(method) : undefined;
    if (fault) this.faults[fault] += 1;
    const named = init.body instanceof FormData ? init.body.get('fotosNoServidor') : null;
    if (typeof named === 'string') this.photosNotResent += (JSON.parse(named) as unknown[]).length;
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const request = new Request(url, { ...init, headers });
    switch (fault) {
      case 'requestLost':
        throw networkError('request lost');
      case 'portal':
        // The captive portal answers in the server's place; the request never reaches it.
        return new Response('<html><body><h1>Wi-Fi Grátis</h1><form>Aceito os termos</form></body></html>', {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
        });
      case 'http502':
      case 'http503':
        // A proxy in between gives up before the server is reached.
        return new Response('<html>Bad Gateway</html>', {
          status: fault === 'http502' ? 502 : 503,
          headers: { 'content-type': 'text/html' },
        });
      case 'expired':
        // The session expires on the way: from here the server answers 401 until the user logs in again.
        this.cookie = '';
        request.headers.delete('cookie');
        return fetch(request);
      case 'cutRequest':
        return this.cutRequest(request);
      case 'slow':
        await sleep(5 + Math.floor(this.random() * 40));
        return fetch(request);
      default:
        break;
    }
    const response = await fetch(request);
    const body = new Uint8Array(await response.arrayBuffer());
    switch (fault) {
      case 'responseLost':
        throw networkError('response lost');
      case 'http500':
        // The server did its work, then something on the way answered 500 instead.
        return new Response(JSON.stringify({ message: 'Erro interno' }), {
          status: 500,
          headers: { 'content-type': 'application/json' },
        });
      case 'cutResponse': {
        const cut = Math.floor(body.length * this.random());
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(body.subarray(0, cut));
            controller.error(networkError('connection cut mid-response'));
          },
        });
        return new Response(stream, { status: response.status, headers: response.headers });
      }
      default:
        return new Response(body.length === 0 ? null : body, {
          status: response.status,
          headers: response.headers,
        });
    }
  };

  private draw(method: string): FaultKind {
    const kinds = FAULT_KINDS.filter((kind) => kind !== 'cutRequest' || method === 'POST');
    return kinds[Math.floor(this.random() * kinds.length)] ?? 'requestLost';
  }

  /** Sends part of the body over a real connection, then cuts it: the server sees the request end mid-body. */
  private async cutRequest(request: Request): Promise<Response> {
    const body = new Uint8Array(await request.arrayBuffer());
    const cut = Math.floor(body.length * this.random());
    const url = new URL(request.url);
    await new Promise<void>((resolve) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, key) => (headers[key] = value));
      headers['content-length'] = String(body.length);
      const outgoing = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: request.method,
        headers,
      });
      outgoing.on('error', () => resolve());
      outgoing.on('close', () => resolve());
      outgoing.write(body.subarray(0, cut), () => setTimeout(() => outgoing.destroy(), 2));
    });
    throw networkError('connection cut mid-request');
  }
}

export interface CampaignOptions {
  ctx: TestContext;
  runs: number;
  seed: number;
  /** Progress lines (every 100 runs and the problems). */
  log?: (line: string) => void;
}

export async function runCampaign({ ctx, runs, seed, log = () => undefined }: CampaignOptions) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const admin = await loginCookie(ctx.app, (await createUser(ctx.db, { roles: ['administrador'] })).login);
  const cliente = await createCliente(ctx.app, admin, `Campanha ${seed}`);
  const tecnico = await createUser(ctx.db, { roles: ['tecnico'], cliente, firstName: 'Campo' });
  const network = new FaultyNetwork(base, random);
  const counts: CampaignCounts = {
    runs: 0,
    records: 0,
    photos: 0,
    requests: 0,
    syncs: 0,
    reauths: 0,
    photosNotResent: 0,
    faults: network.faults,
    lost: 0,
    duplicated: 0,
    photoMismatches: 0,
    pendingLeft: 0,
    problems: [],
  };
  const lostIds = new Set<string>();
  const lose = (item: Made, text: string) => {
    if (lostIds.has(item.coletaId)) return;
    lostIds.add(item.coletaId);
    counts.lost += 1;
    problem(text);
  };
  const problem = (text: string) => {
    counts.problems.push(text);
    log(text);
  };

  /** Logs in over HTTP, as the app's login screen does, and keeps the cookie. */
  async function login() {
    const response = await fetch(new URL('/api/auth/login', base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: tecnico.login, password: PASSWORD }),
    });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('auth_token='));
    if (response.status !== 200 || !cookie) throw new Error(`login: ${response.status}`);
    network.cookie = cookie.split(';')[0] ?? '';
    counts.reauths += 1;
  }

  /** One sync; an expired session sends the technician back to the login, as the app does. */
  async function sync(engine: SyncEngine): Promise<SyncResult | 'expired'> {
    counts.syncs += 1;
    try {
      return await engine.run();
    } catch (error) {
      if (!(error instanceof SessionExpiredError)) throw error;
      await login();
      return 'expired';
    }
  }

  /** Syncs with faults off until a sync completes. */
  async function syncClean(engine: SyncEngine): Promise<void> {
    const rate = network.rate;
    network.rate = 0;
    try {
      let last = '';
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const result = await sync(engine);
        if (result !== 'expired' && result.ok) return;
        last = result === 'expired' ? 'session expired' : (result.error ?? '');
      }
      throw new Error(`a clean sync did not complete: ${last}`);
    } finally {
      network.rate = rate;
    }
  }

  /** The server's rows holding one collection, and the photos of the first. */
  async function onServer(made: Made) {
    const rows = await ctx.db.query<{ id: string; conflito_de: string | null }>(
      'SELECT id, conflito_de FROM registros WHERE coleta = $1',
      [made.coletaId],
    );
    const [row] = rows;
    const fotos = row
      ? await ctx.db.query<{ slot: number; hash: string }>(
          'SELECT slot, hash FROM fotos WHERE registro = $1',
          [row.id],
        )
      : [];
    return { rows, fotos };
  }

  /** Nothing the device let go of may be missing on the server. */
  async function checkDropped(records: RecordStore, made: Made[], run: number) {
    for (const item of made) {
      const local = await records.getByID(item.flow, item.id);
      const stillPending =
        local !== undefined && !local.sincronizadoEm && (local.coletaId ?? local.id) === item.coletaId;
      if (stillPending) continue;
      const { rows } = await onServer(item);
      if (rows.length === 0) {
        lose(item, `run ${run}: ${item.flow.key} ${item.coletaId} left the device but is not on the server`);
      }
    }
  }

  await login();
  counts.reauths = 0;
  for (let run = 1; run <= runs; run += 1) {
    // A project of its own per run keeps each run's downloads small.
    const projetoResponse = await ctx.app.inject({
      method: 'POST',
      url: '/api/projeto',
      headers: { ...FORM, cookie: admin },
      payload: formBody({
        nome: `Campanha ${seed} ${run}`,
        cliente,
        fuso: '22',
        fluxos: FLOWS.map((flow) => flow.key),
        kml: sample('zoneamento-curitiba.kml'),
        arquivoLPTv2: sample('lpt-agiltec.csv'),
      }),
    });
    if (projetoResponse.statusCode !== 201) throw new Error(`projeto: ${projetoResponse.body}`);
    const projeto = projetoResponse.json() as { _id: string; zonas: { _id: string; label: string }[] };
    const zona = projeto.zonas.find((z) => z.label === 'Zona Centro');
    if (!zona) throw new Error('Zona Centro missing');
    await ctx.db.query('DELETE FROM usuario_zonas WHERE usuario = $1', [tecnico.id]);
    await ctx.db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [tecnico.id, zona._id]);

    const db = new NovusDatabase(`novus-faults-${seed}-${run}`);
    const records = new RecordStore(db);
    const engine = new SyncEngine({
      db,
      records,
      transport: new HttpSyncTransport(network.fetch),
      flows: FLOWS,
      tecnico: 'Campo',
    });
    network.rate = 0.3;
    // The morning's sync brings the project and its LPT Agiltec list (faults and all, then clean).
    for (let attempt = between(0, 1); attempt > 0; attempt -= 1) await sync(engine);
    await syncClean(engine);

    const made: Made[] = [];
    const count = between(2, 6);
    for (let i = 0; i < count; i += 1) {
      const flow = pick(FLOWS);
      const fotos = Array.from({ length: between(0, 3) }, () => fakeJpeg(between(800, 6000)));
      const blobs = fotos.map((bytes) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }));
      const at = { lat: CENTRO.lat + (random() - 0.5) * 0.002, lng: CENTRO.lng + (random() - 0.5) * 0.002 };
      const dados = DADOS[flow.key] ?? {};
      let record: LocalColeta;
      if (flow.lifecycle === 'coleta') {
        record = await records.add(flow, {
          projeto: projeto._id,
          dataHora: Date.now(),
          coordenadas: at,
          fotos: blobs,
          dados,
        });
      } else {
        // A point drawn on the map, or (LPT Agiltec, and sometimes a point) one of the project's list.
        const listed = (await records.byProjeto(flow, projeto._id)).filter((r) => r.sincronizadoEm);
        const target =
          flow.lifecycle === 'lista' || (listed.length > 0 && random() < 0.3)
            ? pick(listed)
            : await records.addPoint(flow, projeto._id, at);
        if (!target) continue;
        record = await records.collect(flow, target.id, { coordenadas: at, fotos: blobs, dados });
      }
      const item: Made = {
        flow,
        id: record.id,
        coletaId: record.coletaId ?? record.id,
        fotos: new Map(fotos.map((bytes, slot) => [slot, sha256(bytes)])),
      };
      made.push(item);
      counts.records += 1;
      counts.photos += item.fotos.size;
    }

    for (let attempt = between(1, 3); attempt > 0; attempt -= 1) {
      await sync(engine);
      await checkDropped(records, made, run);
    }
    await syncClean(engine);
    await checkDropped(records, made, run);

    for (const item of made) {
      const { rows, fotos } = await onServer(item);
      if (rows.length === 0) {
        lose(item, `run ${run}: ${item.flow.key} ${item.coletaId} is not on the server`);
        continue;
      }
      if (rows.length > 1) {
        counts.duplicated += rows.length - 1;
        problem(`run ${run}: ${item.flow.key} ${item.coletaId} is on the server ${rows.length} times`);
      }
      const stored = new Map(fotos.map((foto) => [foto.slot, foto.hash]));
      for (const [slot, hash] of item.fotos) {
        const stream = stored.get(slot) === hash ? ctx.blobs.open(hash) : undefined;
        const bytes = stream ? await readAll(stream) : undefined;
        if (!bytes || sha256(bytes) !== hash) {
          counts.photoMismatches += 1;
          problem(`run ${run}: ${item.flow.key} ${item.coletaId} photo ${slot} differs or is missing`);
        }
      }
      if (stored.size !== item.fotos.size) {
        counts.photoMismatches += Math.abs(stored.size - item.fotos.size);
        problem(
          `run ${run}: ${item.flow.key} ${item.coletaId} has ${stored.size} photos, sent ${item.fotos.size}`,
        );
      }
    }
    for (const flow of FLOWS) {
      const pending = await records.pending(flow);
      if (pending.length > 0) {
        counts.pendingLeft += pending.length;
        problem(`run ${run}: ${pending.length} ${flow.key} still pending after a clean sync`);
      }
    }
    // Nothing else of this run's project was stored: no collection the device did not make.
    const stray = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM registros WHERE projeto = $1 AND coleta IS NOT NULL',
      [projeto._id],
    );
    const expected = new Set(made.map((item) => item.coletaId)).size;
    if ((stray[0]?.n ?? 0) !== expected) {
      counts.duplicated += Math.max(0, (stray[0]?.n ?? 0) - expected);
      problem(`run ${run}: ${stray[0]?.n} collections stored, ${expected} made`);
    }
    db.close();
    await db.delete();
    counts.runs += 1;
    counts.requests = network.requests;
    counts.photosNotResent = network.photosNotResent;
    if (run % 100 === 0) log(`fault campaign: ${run}/${runs} runs`);
  }
  return counts;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export function formatCounts(counts: CampaignCounts, seed: number, engine: string): string {
  const faults = Object.entries(counts.faults)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return [
    `fault campaign (${engine}, seed ${seed}): ${counts.runs} runs, ${counts.records} records, ${counts.photos} photos,`,
    `  ${counts.requests} requests, ${counts.syncs} syncs, ${counts.reauths} re-logins, ${counts.photosNotResent} photos not resent (held by the server)`,
    `  faults: ${faults}`,
    `  lost ${counts.lost}, duplicated ${counts.duplicated}, photo mismatches ${counts.photoMismatches}, pending left ${counts.pendingLeft}`,
  ].join('\n');
}
