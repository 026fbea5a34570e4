// The supervisor map's routes (SPEC.md 2 'Supervisor', 7): the compact points of a project, its statistics,
// and the points stored from now on as Server-Sent Events (domain/src/api/mapa.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import * as api from '@novus/domain/api/mapa';
import { periodoSchema } from '@novus/domain/export/periodo';
import type { MapaProjeto, PontoEvento } from '@novus/domain/mapa/api';
import { type Access, ensure, policies } from '../../auth/access.ts';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { notFound, parseInput } from '../../errors.ts';
import type { PontosLive } from '../../live/pontos.ts';
import {
  camadas,
  estatistica,
  findProjetoMapa,
  type MapaFiltro,
  type ProjetoMapa,
  tecnicos,
} from './queries.ts';
import { UUID } from '@novus/domain/ids';
import type { GradeTile } from '@novus/domain/api/mapa';
import { PONTOS_NO_NAVEGADOR } from '../../config.ts';
import {
  type Base,
  BASE_ZOOM,
  baseBytes,
  baseOf,
  type GradeFiltro,
  gradeTiles,
  podarMudancas,
  type Resumo,
  resumo,
  tilesFromBase,
  versaoMapa,
} from './grade.ts';
import { tileBytes, VersionedCache } from './grade-cache.ts';

/** Keeps proxies and browsers from closing a quiet event stream. */
const PING_MS = 25_000;

/** A project's changes are pruned to its newest at most this often (migration 0020). */
const PODA_MS = 10 * 60_000;

export async function mapaRoutes(
  app: FastifyInstance,
  {
    db,
    access,
    live,
    pontosNoNavegador = PONTOS_NO_NAVEGADOR,
  }: { db: Database; access: Access; live: PontosLive; pontosNoNavegador?: number },
) {
  const tiles = new VersionedCache<GradeTile>(tileBytes);
  const resumos = new VersionedCache<Resumo>(() => 1024);
  const listas = new VersionedCache<{ id: string; nome: string }[]>((lista) => 128 * (lista.length + 1));
  const podados = new Map<string, number>();
  const bases = new VersionedCache<Base>(baseBytes);
  /** Bases being read, so requests that come meanwhile wait for the same read. */
  const lendo = new Map<string, Promise<Base>>();

  /** The project's clusters at BASE_ZOOM for these filters and this version: remembered, read once. */
  function baseFor(filtro: GradeFiltro, versao: string): Promise<Base> {
    const key = JSON.stringify(filtro);
    const cached = bases.get(key, versao);
    if (cached !== undefined) return Promise.resolve(cached);
    const reading = `${key}|${versao}`;
    const pending = lendo.get(reading);
    if (pending !== undefined) return pending;
    const read = baseOf(db, filtro).then(
      (base) => {
        bases.set(key, versao, base);
        lendo.delete(reading);
        return base;
      },
      (error: unknown) => {
        lendo.delete(reading);
        throw error;
      },
    );
    lendo.set(reading, read);
    return read;
  }

  /** The project's version, pruning its older changes now and then (no request waits for that). */
  async function versaoOf(projeto: string): Promise<string> {
    const versao = await versaoMapa(db, projeto);
    const now = Date.now();
    if (versao !== '0' && now - (podados.get(projeto) ?? 0) > PODA_MS) {
      podados.set(projeto, now);
      podarMudancas(db, projeto, versao).catch((error: unknown) =>
        app.log.warn({ err: error }, 'mapa_mudancas: poda falhou'),
      );
    }
    return versao;
  }

  /** The technicians' list reads every record of the project: remembered by version too. */
  async function tecnicosOf(projeto: string, versao: string): Promise<{ id: string; nome: string }[]> {
    const cached = listas.get(projeto, versao);
    if (cached !== undefined) return cached;
    const value = await tecnicos(db, projeto);
    listas.set(projeto, versao, value);
    return value;
  }

  async function resumoOf(filtro: GradeFiltro, versao: string): Promise<Resumo> {
    const key = JSON.stringify(filtro);
    const cached = resumos.get(key, versao);
    if (cached !== undefined) return cached;
    const value = await resumo(db, filtro);
    resumos.set(key, versao, value);
    return value;
  }

  /** Supervisors and administrators see the project whole; a technician only the points of their zones. */
  async function visibleProjeto(
    request: FastifyRequest,
    key: string,
  ): Promise<{ projeto: ProjetoMapa; zonas?: string[] }> {
    const projeto = await findProjetoMapa(db, key, UUID.test(key));
    if (!projeto) throw notFound('Projeto não encontrado.');
    const scope = policies.mapScope(access.actor(request), {
      cliente: projeto.cliente,
      zonas: projeto.zonas.map((zona) => zona._id),
    });
    ensure(scope !== null);
    return scope === 'all' || scope === null ? { projeto } : { projeto, zonas: scope };
  }

  /** The filters are read once the project is found and allowed (the declarations' `readByRoute`). */
  function filtroOf(query: unknown, projeto: ProjetoMapa, zonas: string[] | undefined): MapaFiltro {
    const periodo = parseInput(periodoSchema, query);
    return { projeto: projeto.id, ...periodo, ...(zonas ? { zonas } : {}) };
  }

  route(app, access, api.getMapa, async ({ params, query, request, reply }) => {
    const { projeto, zonas } = await visibleProjeto(request, params.id);
    const filtro = filtroOf(query, projeto, zonas);
    const versao = await versaoOf(projeto.id);
    const [sumario, lista] = await Promise.all([resumoOf(filtro, versao), tecnicosOf(projeto.id, versao)]);
    // A city-sized project: the browser gets its counts and box, and asks the server for the clusters it shows.
    const grade = sumario.total > pontosNoNavegador;
    // the clusters' base is read now, while the page draws the map and asks for its first tiles
    if (grade) baseFor(filtro, versao).catch((error: unknown) => app.log.warn({ err: error }, 'mapa: base falhou'));
    const rows = grade ? [] : await camadas(db, filtro);
    const head: Omit<MapaProjeto, 'camadas'> = {
      projeto: { id: projeto.id, nome: projeto.nome },
      zonas: projeto.zonas
        .filter((zona) => !zonas || zonas.includes(zona._id))
        .map((zona) => ({
          _id: zona._id,
          label: zona.label,
          poligono: (zona.poligono2.coordinates[0] ?? []).map(([lng, lat]) => ({
            lat: lat ?? 0,
            lng: lng ?? 0,
          })),
        })),
      tecnicos: lista,
      ...(grade ? { grade: { contagens: sumario.contagens, limites: sumario.limites } } : {}),
    };
    // The layers are written as the database built them: no array of 100,000 numbers parsed and re-serialised.
    const layers = rows
      .map(
        (row) =>
          `{"fluxo":${JSON.stringify(row.fluxo)},"ids":"${row.ids}","coords":[${row.coords}],"status":"${row.status}"}`,
      )
      .join(',');
    const json = JSON.stringify(head);
    void reply.type('application/json; charset=utf-8').send(`${json.slice(0, -1)},"camadas":[${layers}]}`);
    return SENT;
  });

  route(app, access, api.getMapaGrade, async ({ params, query, request }) => {
    const { projeto, zonas } = await visibleProjeto(request, params.id);
    const grade = parseInput(api.gradeQuerySchema, query);
    // without `sinalizados` when off: the same key as the map's own summary (GET …/mapa)
    const filtro: GradeFiltro = {
      ...filtroOf(query, projeto, zonas),
      ...(grade.sinalizados === '1' ? { sinalizados: true } : {}),
    };
    const versao = await versaoOf(projeto.id);
    const prefix = `${JSON.stringify(filtro)}|${grade.modo}|${grade.z}/`;
    const found = new Map<string, GradeTile>();
    const missing: [number, number][] = [];
    for (const [x, y] of grade.tiles) {
      const tile = tiles.get(`${prefix}${x}/${y}`, versao);
      if (tile === undefined) missing.push([x, y]);
      else found.set(`${x}/${y}`, tile);
    }
    const [computed, sumario] = await Promise.all([
      missing.length === 0
        ? []
        : grade.modo === 'clusters' && grade.z <= BASE_ZOOM
          ? baseFor(filtro, versao).then((base) => tilesFromBase(db, filtro, base, grade.z, missing))
          : gradeTiles(db, filtro, grade.z, grade.modo, missing),
      resumoOf(filtro, versao),
    ]);
    for (const tile of computed) {
      tiles.set(`${prefix}${tile.x}/${tile.y}`, versao, tile);
      found.set(`${tile.x}/${tile.y}`, tile);
    }
    return {
      versao,
      contagens: sumario.contagens,
      tiles: grade.tiles.flatMap(([x, y]) => found.get(`${x}/${y}`) ?? []),
    };
  });

  route(app, access, api.getEstatistica, async ({ params, query, request }) => {
    const { projeto, zonas } = await visibleProjeto(request, params.nome);
    return estatistica(db, filtroOf(query, projeto, zonas));
  });

  const streams = new Set<ServerResponse>();
  // Before the server stops: it waits for every open connection, and an event stream never ends by itself.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });
  app.addHook('onClose', async () => {
    await live.close();
  });

  route(app, access, api.watchMapa, async ({ params, request, reply }) => {
    const { projeto, zonas } = await visibleProjeto(request, params.id);
    const res = reply.raw;
    let stop: (() => void) | null = null;
    let ping: NodeJS.Timeout | null = null;
    res.on('close', () => {
      if (ping) clearInterval(ping);
      stop?.();
      streams.delete(res);
    });
    // Listening before the headers go out: a browser's EventSource is open on the headers, and a point stored
    // from then on must reach it.
    const unsubscribe = await live.subscribe(projeto.id, (ponto) => {
      if (zonas && (ponto.zona === null || !zonas.includes(ponto.zona))) return;
      const evento: PontoEvento = {
        fluxo: ponto.fluxo,
        id: ponto.id,
        lat: ponto.lat,
        lng: ponto.lng,
        status: ponto.status,
        tecnico: ponto.tecnico,
        dataHora: ponto.dataHora,
      };
      res.write(`event: ponto\ndata: ${JSON.stringify(evento)}\n\n`);
    });
    // Only now: a LISTEN that failed (the database is away) is answered by the error handler, a 503.
    reply.hijack();
    if (res.destroyed) {
      unsubscribe();
      return SENT;
    }
    stop = unsubscribe;
    streams.add(res);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': novus\n\n');
    ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
    return SENT;
  });
}
