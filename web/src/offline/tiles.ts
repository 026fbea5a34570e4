// 'Download do Mapa' (SPEC.md sections 2 and 9, DESIGN.md 'Maps and tiles'): the tiles over the bounding boxes of a
// project's zones go into Cache Storage, where the service worker serves them offline: the zoom-19 tiles of the
// server's download source, or every zoom of the project's basemap package up to 19 (issue 23).
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { mapaBaseTileTemplate } from '@novus/domain/mapa/base';
import type { LocalProjeto, LocalZona } from './db';

export const TILE_CACHE = 'novus-tiles';
export const DOWNLOAD_ZOOM = 19;

export interface Tile {
  z: number;
  x: number;
  y: number;
}

export interface Bbox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export function lngToTileX(lng: number, z: number): number {
  const n = 2 ** z;
  return Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
}

/** Web Mercator stops here: a package's bounds may say ±90, whose tangent would give no row at all. */
const MAX_LAT = 85.0511287798;

export function latToTileY(lat: number, z: number): number {
  const n = 2 ** z;
  const rad = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return Math.min(n - 1, Math.max(0, y));
}

/** The box around a zone's outer ring, or null when the zone has no polygon. */
export function zonaBbox(zona: LocalZona): Bbox | null {
  const ring = zona.poligono ?? [];
  if (ring.length === 0) return null;
  return {
    south: Math.min(...ring.map((p) => p.lat)),
    north: Math.max(...ring.map((p) => p.lat)),
    west: Math.min(...ring.map((p) => p.lng)),
    east: Math.max(...ring.map((p) => p.lng)),
  };
}

/** The rows each column of tiles covers at zoom z, merged where the boxes overlap or touch: [y0, y1] runs per x. */
function columnRuns(boxes: readonly Bbox[], z: number): Map<number, [number, number][]> {
  const spans = boxes.map((box) => ({
    x0: lngToTileX(box.west, z),
    x1: lngToTileX(box.east, z),
    // y grows southwards
    y0: latToTileY(box.north, z),
    y1: latToTileY(box.south, z),
  }));
  const columns = new Map<number, [number, number][]>();
  const xs = new Set(spans.flatMap(({ x0, x1 }) => Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i)));
  for (const x of [...xs].sort((a, b) => a - b)) {
    const runs = spans
      .filter((span) => span.x0 <= x && x <= span.x1)
      .map(({ y0, y1 }): [number, number] => [y0, y1])
      .sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const run of runs) {
      const last = merged.at(-1);
      if (last && run[0] <= last[1] + 1) last[1] = Math.max(last[1], run[1]);
      else merged.push([run[0], run[1]]);
    }
    columns.set(x, merged);
  }
  return columns;
}

/** How many tiles cover the boxes at zoom z, counted without listing them (a plan past the limit may be huge). */
export function countTilesForBboxes(boxes: readonly Bbox[], z: number = DOWNLOAD_ZOOM): number {
  let count = 0;
  for (const runs of columnRuns(boxes, z).values()) {
    for (const [y0, y1] of runs) count += y1 - y0 + 1;
  }
  return count;
}

/** Every tile covering the boxes at zoom z, each once (boxes of neighbouring zones overlap on their edges). */
export function tilesForBboxes(boxes: readonly Bbox[], z: number = DOWNLOAD_ZOOM): Tile[] {
  const tiles: Tile[] = [];
  for (const [x, runs] of columnRuns(boxes, z)) {
    for (const [y0, y1] of runs) {
      for (let y = y0; y <= y1; y += 1) tiles.push({ z, x, y });
    }
  }
  return tiles;
}

export function tileUrl(template: string, { z, x, y }: Tile): string {
  return template
    .replace('{z}', String(z))
    .replace('{x}', String(x))
    .replace('{y}', String(y))
    .replace('{s}', 'a');
}

const KB = 1024;
const MB = 1024 ** 2;

/** '1.234', as Brazilians write numbers. */
export const formatCount = (count: number): string => count.toLocaleString('pt-BR');

/** '34 kB', '3,4 MB', '12 MB': a size said roughly, for an estimate or the storage panel. */
export function formatBytes(bytes: number): string {
  if (bytes < MB) return `${formatCount(Math.max(bytes > 0 ? 1 : 0, Math.round(bytes / KB)))} kB`;
  const mb = bytes / MB;
  return `${mb.toLocaleString('pt-BR', { maximumFractionDigits: mb < 10 ? 1 : 0 })} MB`;
}

export const TILE_TEXTS = {
  notConfigured: 'O Download do Mapa não está configurado neste servidor.',
  noZones: 'Este projeto não tem zonas para baixar.',
  notCovered: 'O mapa offline do projeto não cobre as zonas deste projeto.',
  tooMany: (total: number, limite: number) =>
    `O mapa deste projeto tem ${total} blocos, acima do limite de ${limite} para download.`,
  estimate: (total: number, bytes: number) =>
    `Serão baixados ${formatCount(total)} blocos (cerca de ${formatBytes(bytes)}).`,
  progress: (done: number, total: number) => `Downloading: ${done} de ${total}`,
  done: (total: number) => `Mapa baixado: ${total} blocos disponíveis sem internet.`,
  partial: (failed: number, total: number) =>
    `Mapa baixado com falhas: ${failed} de ${total} blocos não foram encontrados.`,
  interrupted: (failed: number, total: number) =>
    `Download interrompido: ${failed} de ${total} blocos ficaram por baixar. Toque em Download do Mapa de novo para continuar de onde parou.`,
  offline: 'Sem conexão: conecte-se à internet para baixar o mapa.',
} as const;

/** Where a project's tiles come from: the server's download source, or the project's basemap package. */
export interface TileSource {
  /** The URL template; a package's carries its version (`?v=`), so a replaced archive is fetched anew. */
  template: string;
  /** A package answers 404 where the archive has no tile: nothing to draw there, not a failure. */
  pacote: boolean;
}

export interface TilePlan {
  tiles: Tile[];
  error?: string;
  /** Packages: about how many bytes the tiles weigh (the archive's mean tile size times the tiles). */
  bytes?: number;
}

function zoneBoxes(zonas: readonly LocalZona[]): Bbox[] {
  return zonas.map(zonaBbox).filter((box): box is Bbox => box !== null);
}

/** Refuses a plan past the project's limit (0 or none: no limit). */
function withinLimit(count: number, limiteDownload: number | undefined): string | undefined {
  return limiteDownload !== undefined && limiteDownload > 0 && count > limiteDownload
    ? TILE_TEXTS.tooMany(count, limiteDownload)
    : undefined;
}

/** What 'Download do Mapa' would fetch from the server's download source, or why it refuses. */
export function planDownload(
  zonas: readonly LocalZona[],
  template: string | null,
  limiteDownload: number | undefined,
): TilePlan {
  if (template === null) return { tiles: [], error: TILE_TEXTS.notConfigured };
  const boxes = zoneBoxes(zonas);
  if (boxes.length === 0) return { tiles: [], error: TILE_TEXTS.noZones };
  const tiles = tilesForBboxes(boxes);
  const error = withinLimit(tiles.length, limiteDownload);
  return error === undefined ? { tiles } : { tiles, error };
}

/** The part of a box inside the package's bounds, or null when they do not meet. */
export function intersectBbox(box: Bbox, { oeste, sul, leste, norte }: MapaBase['limites']): Bbox | null {
  const south = Math.max(box.south, sul);
  const north = Math.min(box.north, norte);
  const west = Math.max(box.west, oeste);
  const east = Math.min(box.east, leste);
  return south <= north && west <= east ? { south, north, west, east } : null;
}

/** The zooms a package is downloaded at: all it has, up to 19 (past its last zoom the map overzooms). */
export function packageZooms({ minZoom, maxZoom }: Pick<MapaBase, 'minZoom' | 'maxZoom'>): number[] {
  const top = Math.max(minZoom, Math.min(maxZoom, DOWNLOAD_ZOOM));
  return Array.from({ length: top - minZoom + 1 }, (_, i) => minZoom + i);
}

/**
 * What 'Download do Mapa' would fetch from the project's package: its zones' boxes within the archive's bounds at
 * every zoom it has up to 19, or why it refuses; the tiles are counted before they are listed, as a plan past the
 * limit may run to millions.
 */
export function planMapaBase(
  zonas: readonly LocalZona[],
  mapa: MapaBase,
  limiteDownload: number | undefined,
): TilePlan {
  const zoneBoxesOfProject = zoneBoxes(zonas);
  if (zoneBoxesOfProject.length === 0) return { tiles: [], error: TILE_TEXTS.noZones };
  const boxes = zoneBoxesOfProject
    .map((box) => intersectBbox(box, mapa.limites))
    .filter((box): box is Bbox => box !== null);
  if (boxes.length === 0) return { tiles: [], error: TILE_TEXTS.notCovered };
  const zooms = packageZooms(mapa);
  const count = zooms.reduce((sum, z) => sum + countTilesForBboxes(boxes, z), 0);
  const error = withinLimit(count, limiteDownload);
  if (error !== undefined) return { tiles: [], error };
  const tiles = zooms.flatMap((z) => tilesForBboxes(boxes, z));
  const bytes = mapa.blocos > 0 ? Math.round((tiles.length * mapa.tamanho) / mapa.blocos) : 0;
  return { tiles, bytes };
}

/** A project's plan and where its tiles come from: its package when it has one, else the server's source. */
export function planProjeto(
  projeto: Pick<LocalProjeto, 'id' | 'zonas' | 'limiteDownload' | 'mapaBase'>,
  downloadTemplate: string | null,
): { plan: TilePlan; source: TileSource | null } {
  const mapa = projeto.mapaBase ?? null;
  if (mapa !== null) {
    return {
      plan: planMapaBase(projeto.zonas, mapa, projeto.limiteDownload),
      source: { template: mapaBaseTileTemplate(projeto.id, mapa), pacote: true },
    };
  }
  return {
    plan: planDownload(projeto.zonas, downloadTemplate, projeto.limiteDownload),
    source: downloadTemplate === null ? null : { template: downloadTemplate, pacote: false },
  };
}

export interface DownloadResult {
  /** Tiles dealt with: stored, absent from a package, or failed. */
  done: number;
  failed: number;
  /** Tiles of the list in the cache at the end (stored before or now), and their bytes. */
  stored: number;
  bytes: number;
  /** URLs a package answered 404 for (or known absent before): the archive has no tile there. */
  absent: string[];
}

export interface DownloadOptions {
  cacheStorage?: CacheStorage;
  fetchFn?: typeof fetch;
  concurrency?: number;
  /** A package's 404 means no tile there: done, not failed, and reported in `absent`. */
  absentIsDone?: boolean;
  /** URLs already known absent (a cut download's 404s): done without asking again. */
  knownAbsent?: ReadonlySet<string>;
}

/** The body is stored as fetch decoded it: its transfer encoding and length no longer describe it. */
function storedHeaders(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  return headers;
}

/** The bytes of a response's body: a cached tile is read from disk, which is cheap beside a fetch. */
async function sizeOf(response: Response): Promise<number> {
  return (await response.blob()).size;
}

/**
 * Fetches the tiles a few at a time into the tile cache; tiles already cached are not fetched again, so a cut
 * download resumes where it stopped. `onProgress` also hears the figures so far, for a record kept on the way.
 */
export async function downloadTiles(
  urls: readonly string[],
  onProgress: (done: number, total: number, sofar: DownloadResult) => void,
  {
    cacheStorage = caches,
    fetchFn = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    concurrency = 6,
    absentIsDone = false,
    knownAbsent = new Set<string>(),
  }: DownloadOptions = {},
): Promise<DownloadResult> {
  const cache = await cacheStorage.open(TILE_CACHE);
  const result: DownloadResult = { done: 0, failed: 0, stored: 0, bytes: 0, absent: [] };
  let next = 0;
  onProgress(0, urls.length, result);
  const fetchOne = async (url: string) => {
    if (knownAbsent.has(url)) {
      result.absent.push(url);
      return;
    }
    const cached = await cache.match(url);
    if (cached) {
      result.stored += 1;
      result.bytes += await sizeOf(cached);
      return;
    }
    const response = await fetchFn(url, { credentials: 'same-origin' });
    if (response.ok) {
      // Read once: the body is both measured and stored (a Response is consumed by either).
      const body = await response.blob();
      await cache.put(url, new Response(body, { status: response.status, headers: storedHeaders(response) }));
      result.stored += 1;
      result.bytes += body.size;
    } else if (absentIsDone && response.status === 404) {
      result.absent.push(url);
    } else {
      result.failed += 1;
    }
  };
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next];
      next += 1;
      if (url === undefined) break;
      try {
        await fetchOne(url);
      } catch {
        result.failed += 1;
      }
      result.done += 1;
      onProgress(result.done, urls.length, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  return result;
}
