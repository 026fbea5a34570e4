// /api/projeto/:id/mapa-base (issue 23, domain/src/api/mapa-base.ts): a project's basemap package — a PMTiles v3
// archive uploaded (streamed into the blob store, checked on the way, never whole in memory) or read from a URL by
// ranges — and its tiles, read by ranges through the `pmtiles` reader (one reader per package version, its
// directories cached), for the project's technicians and the back office that sees the project.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Compression, PMTiles, SharedPromiseCache, type Source } from 'pmtiles';
import * as api from '@novus/domain/api/mapa-base';
import { type Access, ensure, policies } from '../../auth/access.ts';
import type { Callers } from '../../auth/callers.ts';
import type { MapaBaseConfig } from '../../config.ts';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound, tooLarge } from '../../errors.ts';
import { ArchiveReadError, BlobTooLargeError, type BlobStore } from '../../storage/blob-store.ts';
import { listZonas } from '../projetos/queries.ts';
import { inspectArchive, nodeDecompress, PmtilesCheck, StoredArchiveSource } from './archive.ts';
import {
  archiveReferenced,
  deleteMapaBase,
  getMapaBaseAcesso,
  getMapaBaseRow,
  type MapaBaseAcesso,
  mapaBaseJson,
  type MapaBaseRow,
  saveMapaBase,
} from './queries.ts';
import { UrlSource, unreachable } from './remote.ts';

const PROJETO_NAO_ENCONTRADO = 'Projeto não encontrado.';
export const SEM_MAPA = 'O projeto não tem mapa offline.';
export const FORA_DO_MAPA = 'O mapa offline não tem bloco nesse zoom e posição.';
const ARQUIVO_SUMIU = 'O arquivo do mapa offline não está no armazenamento: envie o mapa de novo.';
const URL_FORA = 'O servidor do mapa offline não respondeu. Tente novamente em instantes.';

/** Readers kept open (their headers and directories cached): a few projects' packages at a time. */
const MAX_READERS = 16;

/** A year, for a tile whose URL carries the package's version: a new package is a new URL. */
const IMMUTABLE = 'private, max-age=31536000, immutable';
const SHORT = 'private, max-age=300';

function gib(bytes: number): string {
  const value = bytes / 1024 ** 3;
  return value >= 1
    ? `${value.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} GiB`
    : `${(bytes / 1024 ** 2).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} MB`;
}

/**
 * Removes an archive no project refers to any more (a package replaced or removed), unless an upload of this
 * process is storing the same bytes right now.
 */
export async function removeUnreferencedArchive(
  db: Database,
  blobs: BlobStore,
  hash: string | null | undefined,
  storing: ReadonlySet<string> = new Set(),
): Promise<void> {
  if (!hash || storing.has(hash)) return;
  if (await archiveReferenced(db, hash)) return;
  await blobs.removeArchive(hash);
}

export async function mapaBaseRoutes(
  app: FastifyInstance,
  {
    db,
    access,
    blobs,
    callers,
    config,
  }: { db: Database; access: Access; blobs: BlobStore; callers: Callers; config: MapaBaseConfig },
) {
  const storing = new Set<string>();
  const readers = new Map<string, PMTiles>();

  // The upload's body is the archive itself: handed to the route as the request's stream, never buffered here.
  app.addContentTypeParser(
    ['application/vnd.pmtiles', 'application/octet-stream'],
    (_request, payload, done) => done(null, payload),
  );

  const acessoOf = (projeto: string) =>
    callers.get(`mapa-base:${projeto}`, () => getMapaBaseAcesso(db, projeto));

  /** The project's package for a reader of it: 404 without the project, 403 for whoever may not see it. */
  async function readable(request: Parameters<Access['actor']>[0], projeto: string): Promise<MapaBaseAcesso> {
    const acesso = await acessoOf(projeto);
    if (!acesso) throw notFound(PROJETO_NAO_ENCONTRADO);
    ensure(policies.mapScope(access.actor(request), acesso) !== null);
    return acesso;
  }

  function sourceOf(mapa: MapaBaseRow): Source {
    if (mapa.origem === 'url' && mapa.url) return new UrlSource(mapa.url, config.allowPrivate);
    if (mapa.hash) return new StoredArchiveSource(blobs, mapa.hash);
    throw new Error(`mapas_base of ${mapa.projeto}: neither hash nor url`);
  }

  function readerOf(mapa: MapaBaseRow): PMTiles {
    const key = `${mapa.projeto}:${mapa.versao}`;
    let reader = readers.get(key);
    if (reader) {
      readers.delete(key);
    } else {
      // Directories decompressed (the cache's), tiles as stored (the reader's): a gzip tile goes to a browser as
      // it is, Content-Encoding gzip, a fraction of its bytes on the technician's link. Only getZxy is read here.
      reader = new PMTiles(
        sourceOf(mapa),
        new SharedPromiseCache(200, false, nodeDecompress),
        async (buf) => buf,
      );
      // The project's older versions are gone for good.
      for (const old of readers.keys()) if (old.startsWith(`${mapa.projeto}:`)) readers.delete(old);
    }
    readers.set(key, reader);
    while (readers.size > MAX_READERS) readers.delete(readers.keys().next().value as string);
    return reader;
  }

  async function answer(projeto: string): Promise<api.MapaBase> {
    const [mapa, zonas] = await Promise.all([getMapaBaseRow(db, projeto), listZonas(db, [projeto])]);
    if (!mapa) throw notFound(SEM_MAPA);
    return mapaBaseJson(mapa, zonas);
  }

  async function projetoExists(projeto: string): Promise<void> {
    if (!(await getMapaBaseAcesso(db, projeto))) throw notFound(PROJETO_NAO_ENCONTRADO);
  }

  /** Writes the package's row and removes the archive it replaced when nothing else refers to it. */
  async function save(mapa: Parameters<typeof saveMapaBase>[1]): Promise<void> {
    const previous = await db.transaction((tx) => saveMapaBase(tx, mapa));
    await removeUnreferencedArchive(db, blobs, previous, storing);
  }

  /** A refused upload is answered on a connection that closes: the rest of its body is never read. */
  function refuse(reply: FastifyReply, error: unknown): never {
    reply.header('connection', 'close');
    if (error instanceof BlobTooLargeError) {
      throw tooLarge(`O arquivo excede o tamanho máximo do mapa offline (${gib(config.maxBytes)}).`);
    }
    throw error;
  }

  route(app, access, api.getMapaBase, async ({ params: { id }, request }) => {
    await readable(request, id);
    return answer(id);
  });

  route(app, access, api.getMapaBaseTile, async ({ params: { id, z, x, y }, query, request, reply }) => {
    const { mapa } = await readable(request, id);
    if (!mapa) throw notFound(SEM_MAPA);
    const reader = readerOf(mapa);
    let compression: Compression;
    try {
      ({ tileCompression: compression } = await reader.getHeader());
    } catch (error) {
      throw unreadable(request, mapa, error);
    }
    // A browser takes a gzip tile as it is stored; any other compression, or a client without gzip, gets it plain.
    const gzip =
      compression === Compression.Gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const etag = `"${mapa.versao}-${z}-${x}-${y}${gzip ? '-gz' : ''}"`;
    // Cached for a year under the URL of the current version; briefly under any other.
    const cached = { etag, 'cache-control': query.v === mapa.versao ? IMMUTABLE : SHORT };
    const match = request.headers['if-none-match'];
    if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      await reply.status(304).headers(cached).send();
      return SENT;
    }
    if (z < mapa.min_zoom || z > mapa.max_zoom || x >= 2 ** z || y >= 2 ** z) throw notFound(FORA_DO_MAPA);
    let tile;
    try {
      tile = await reader.getZxy(z, x, y);
    } catch (error) {
      throw unreadable(request, mapa, error);
    }
    if (!tile) throw notFound(FORA_DO_MAPA);
    reply.headers({ ...cached, vary: 'accept-encoding' });
    if (gzip) reply.header('content-encoding', 'gzip');
    const data = gzip ? tile.data : await nodeDecompress(tile.data, compression);
    await reply.header('content-type', api.MAPA_BASE_MEDIA[mapa.tipo]).send(Buffer.from(data));
    return SENT;
  });

  /** Why a package could not be read: its file gone from the store (404), its URL not answering (502). */
  function unreadable(request: FastifyRequest, mapa: MapaBaseRow, error: unknown): unknown {
    if (error instanceof ArchiveReadError) return notFound(ARQUIVO_SUMIU);
    if (mapa.origem === 'url' && !(error instanceof AppError)) {
      request.log.warn({ err: error }, 'basemap URL unreadable');
      return new AppError(502, URL_FORA);
    }
    return error;
  }

  route(app, access, api.putMapaBase, async ({ params: { id }, query, request, reply }) => {
    await projetoExists(id);
    // A declared size over the limit is refused before a byte of the body is read.
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > config.maxBytes)
      refuse(reply, new BlobTooLargeError(config.maxBytes));
    const body = request.body instanceof Readable ? request.body : Readable.from([]);
    let stored;
    try {
      stored = await blobs.putArchive(body, new PmtilesCheck(), {
        maxBytes: config.maxBytes,
        keepStream: true,
      });
    } catch (error) {
      refuse(reply, error);
    }
    storing.add(stored.hash);
    try {
      await save({
        projeto: id,
        origem: 'arquivo',
        hash: stored.hash,
        url: null,
        nome: query.nome?.trim() || 'mapa.pmtiles',
        tamanho: stored.size,
        // The bytes' own hash: a new archive is a new version, the same one sent again is not.
        versao: stored.hash.slice(0, 16),
        facts: stored.checked,
        usuario: access.actor(request).id,
      });
    } catch (error) {
      storing.delete(stored.hash);
      // The row was not written (the project went meanwhile): the archive is nobody's.
      await removeUnreferencedArchive(db, blobs, stored.hash, storing).catch(() => undefined);
      throw error;
    }
    storing.delete(stored.hash);
    return answer(id);
  });

  route(app, access, api.putMapaBaseUrl, async ({ params: { id }, body, request }) => {
    await projetoExists(id);
    const source = new UrlSource(body.url, config.allowPrivate);
    source.checkHost();
    let facts;
    try {
      // The first bytes first: their answer tells the archive's size, against which its sections are checked.
      await source.getBytes(0, 8);
      facts = await inspectArchive(source, source.size, 'first');
    } catch (error) {
      throw unreachable(error);
    }
    await save({
      projeto: id,
      origem: 'url',
      hash: null,
      url: body.url,
      nome: body.url,
      tamanho: source.size ?? 0,
      versao: `u${crypto.randomBytes(6).toString('hex')}`,
      facts,
      usuario: access.actor(request).id,
    });
    return answer(id);
  });

  route(app, access, api.deleteMapaBase, async ({ params: { id } }) => {
    await projetoExists(id);
    const hash = await db.transaction((tx) => deleteMapaBase(tx, id));
    await removeUnreferencedArchive(db, blobs, hash, storing);
    return undefined;
  });
}
