// The maps on the device ('Download do Mapa', issue 23): the download of a project's tiles with a small record of
// it (tiles, bytes, the tiles a package does not have), what the storage panel lists, and the removal of a map.
// The record lives in the tile cache beside the tiles, not in IndexedDB: the local database is pinned at version 21
// (SPEC.md section 9), and a record kept with its tiles is evicted or cleared with them, never left behind.
import type { LocalProjeto } from './db';
import {
  type DownloadOptions,
  type DownloadResult,
  downloadTiles,
  planDownload,
  TILE_CACHE,
  type Tile,
  type TilePlan,
  type TileSource,
  tileUrl,
} from './tiles';

/** A project's downloaded map, as the storage panel shows it and a resumed download reads it. */
export interface MapaBaixado {
  projeto: string;
  nome: string;
  /** The template the tiles were fetched by: a package's carries its version (`?v=`). */
  template: string;
  pacote: boolean;
  /** Tiles of the plan in the cache, and their bytes. */
  blocos: number;
  bytes: number;
  /** 'z/x/y' of the tiles the package does not have (404): a resumed download does not ask for them again. */
  ausentes: string[];
  /** Every tile of the plan stored or known absent. */
  completo: boolean;
  baixadoEm: number;
}

/** Where the records are kept in the tile cache: a path the app never requests. */
const RECORD_PATH = '/novus-mapas/';
/** A record is written every this many tiles, so a download cut by a closed page still remembers its 404s. */
const CHECKPOINT_TILES = 50;

const recordUrl = (projeto: string) => `${RECORD_PATH}${encodeURIComponent(projeto)}`;
const keyOf = ({ z, x, y }: Tile) => `${z}/${x}/${y}`;
/** The path under which a project's package tiles are cached, whatever their version. */
const packagePath = (projeto: string) => `/api/projeto/${projeto}/mapa-base/`;

function parseRecord(value: unknown): MapaBaixado | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Partial<MapaBaixado>; // every field is checked below before use
  return typeof record.projeto === 'string' &&
    typeof record.nome === 'string' &&
    typeof record.template === 'string' &&
    typeof record.blocos === 'number' &&
    typeof record.bytes === 'number' &&
    Array.isArray(record.ausentes)
    ? {
        projeto: record.projeto,
        nome: record.nome,
        template: record.template,
        pacote: record.pacote === true,
        blocos: record.blocos,
        bytes: record.bytes,
        ausentes: record.ausentes.filter((key): key is string => typeof key === 'string'),
        completo: record.completo === true,
        baixadoEm: typeof record.baixadoEm === 'number' ? record.baixadoEm : 0,
      }
    : null;
}

async function readRecord(cache: Cache, url: string | Request): Promise<MapaBaixado | null> {
  const response = await cache.match(url);
  if (!response) return null;
  try {
    return parseRecord(await response.json());
  } catch {
    return null;
  }
}

function writeRecord(cache: Cache, record: MapaBaixado): Promise<void> {
  return cache.put(
    recordUrl(record.projeto),
    new Response(JSON.stringify(record), { headers: { 'Content-Type': 'application/json' } }),
  );
}

const isRecord = (request: Request) => new URL(request.url).pathname.startsWith(RECORD_PATH);

/** The maps downloaded on this device, by project name. */
export async function readMapas(
  cacheStorage: CacheStorage | undefined = typeof caches === 'undefined' ? undefined : caches,
): Promise<MapaBaixado[]> {
  if (!cacheStorage || !(await cacheStorage.has(TILE_CACHE))) return [];
  const cache = await cacheStorage.open(TILE_CACHE);
  const records: MapaBaixado[] = [];
  for (const request of (await cache.keys()).filter(isRecord)) {
    const record = await readRecord(cache, request);
    if (record !== null) records.push(record);
  }
  return records.sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
}

/** A project's package tiles of another version than `keep` (all of them when null): an archive replaced. */
async function deletePackageTiles(cache: Cache, projeto: string, keep: string | null): Promise<void> {
  const wanted = keep === null ? null : new URL(keep, 'http://localhost').search;
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.pathname.startsWith(packagePath(projeto)) && url.search !== wanted) await cache.delete(request);
  }
}

export interface BaixarMapaOptions extends Pick<DownloadOptions, 'fetchFn' | 'concurrency'> {
  cacheStorage?: CacheStorage;
  now?: () => number;
}

/**
 * Downloads a project's planned tiles into the tile cache and keeps its record on the way. Tiles already stored are
 * not fetched again, nor the ones a package said it does not have; tiles of a replaced package go first.
 */
export async function baixarMapa(
  projeto: Pick<LocalProjeto, 'id' | 'nome'>,
  plan: TilePlan,
  source: TileSource,
  onProgress: (done: number, total: number) => void,
  { cacheStorage = caches, now = () => Date.now(), ...download }: BaixarMapaOptions = {},
): Promise<DownloadResult> {
  const cache = await cacheStorage.open(TILE_CACHE);
  await deletePackageTiles(cache, projeto.id, source.pacote ? source.template : null);
  const before = await readRecord(cache, recordUrl(projeto.id));
  const keys = new Map(plan.tiles.map((tile) => [tileUrl(source.template, tile), keyOf(tile)]));
  const absentBefore = new Set(before?.template === source.template ? before.ausentes : []);
  const knownAbsent = new Set([...keys].filter(([, key]) => absentBefore.has(key)).map(([url]) => url));

  // Saves follow one another: a late checkpoint must never overwrite the final record.
  let saving = Promise.resolve();
  const save = (sofar: DownloadResult, completo: boolean) => {
    const record: MapaBaixado = {
      projeto: projeto.id,
      nome: projeto.nome,
      template: source.template,
      pacote: source.pacote,
      blocos: sofar.stored,
      bytes: sofar.bytes,
      ausentes: sofar.absent.map((url) => keys.get(url) ?? url),
      completo,
      baixadoEm: now(),
    };
    saving = saving.then(() => writeRecord(cache, record)).catch(() => undefined);
    return saving;
  };
  const result = await downloadTiles(
    [...keys.keys()],
    (done, total, sofar) => {
      onProgress(done, total);
      if (done > 0 && done % CHECKPOINT_TILES === 0) void save(sofar, false);
    },
    { ...download, cacheStorage, absentIsDone: source.pacote, knownAbsent },
  );
  await save(result, result.failed === 0);
  return result;
}

/**
 * Removes a project's map: its record, its package tiles, and the server source's tiles of its zones (tiles another
 * project's zones share go too: that project then asks for them again).
 */
export async function removerMapa(
  projeto: string,
  zonas: LocalProjeto['zonas'] | undefined,
  cacheStorage: CacheStorage = caches,
): Promise<void> {
  if (!(await cacheStorage.has(TILE_CACHE))) return;
  const cache = await cacheStorage.open(TILE_CACHE);
  const record = await readRecord(cache, recordUrl(projeto));
  await deletePackageTiles(cache, projeto, null);
  if (record !== null && !record.pacote && zonas !== undefined) {
    for (const tile of planDownload(zonas, record.template, undefined).tiles) {
      await cache.delete(tileUrl(record.template, tile));
    }
  }
  await cache.delete(recordUrl(projeto));
}
