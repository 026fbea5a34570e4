// 'Download do Mapa' (SPEC.md sections 2 and 9, DESIGN.md 'Maps and tiles'): the zoom-19 tiles over the
// bounding boxes of a project's zones go into Cache Storage, where the service worker serves them offline.
import type { LocalZona } from './db';

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

export function latToTileY(lat: number, z: number): number {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
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

/** Every tile covering the boxes at zoom z, each once (boxes of neighbouring zones overlap on their edges). */
export function tilesForBboxes(boxes: readonly Bbox[], z: number = DOWNLOAD_ZOOM): Tile[] {
  const seen = new Set<string>();
  const tiles: Tile[] = [];
  for (const box of boxes) {
    const [x0, x1] = [lngToTileX(box.west, z), lngToTileX(box.east, z)];
    // y grows southwards
    const [y0, y1] = [latToTileY(box.north, z), latToTileY(box.south, z)];
    for (let x = x0; x <= x1; x += 1) {
      for (let y = y0; y <= y1; y += 1) {
        const key = `${x}/${y}`;
        if (seen.has(key)) continue;
        seen.add(key);
        tiles.push({ z, x, y });
      }
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

export const TILE_TEXTS = {
  notConfigured: 'O Download do Mapa não está configurado neste servidor.',
  noZones: 'Este projeto não tem zonas para baixar.',
  tooMany: (total: number, limite: number) =>
    `O mapa deste projeto tem ${total} blocos, acima do limite de ${limite} para download.`,
  progress: (done: number, total: number) => `Downloading: ${done} de ${total}`,
  done: (total: number) => `Mapa baixado: ${total} blocos disponíveis sem internet.`,
  partial: (failed: number, total: number) =>
    `Mapa baixado com falhas: ${failed} de ${total} blocos não foram encontrados.`,
  offline: 'Sem conexão: conecte-se à internet para baixar o mapa.',
} as const;

export interface TilePlan {
  tiles: Tile[];
  error?: string;
}

/** What 'Download do Mapa' would fetch, or why it refuses. */
export function planDownload(
  zonas: readonly LocalZona[],
  template: string | null,
  limiteDownload: number | undefined,
): TilePlan {
  if (template === null) return { tiles: [], error: TILE_TEXTS.notConfigured };
  const boxes = zonas.map(zonaBbox).filter((box): box is Bbox => box !== null);
  if (boxes.length === 0) return { tiles: [], error: TILE_TEXTS.noZones };
  const tiles = tilesForBboxes(boxes);
  if (limiteDownload !== undefined && limiteDownload > 0 && tiles.length > limiteDownload) {
    return { tiles, error: TILE_TEXTS.tooMany(tiles.length, limiteDownload) };
  }
  return { tiles };
}

export interface DownloadResult {
  done: number;
  failed: number;
}

/** Fetches the tiles a few at a time into the tile cache; tiles already cached are not fetched again. */
export async function downloadTiles(
  urls: readonly string[],
  onProgress: (done: number, total: number) => void,
  {
    cacheStorage = caches,
    fetchFn = (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    concurrency = 6,
  }: { cacheStorage?: CacheStorage; fetchFn?: typeof fetch; concurrency?: number } = {},
): Promise<DownloadResult> {
  const cache = await cacheStorage.open(TILE_CACHE);
  let next = 0;
  let done = 0;
  let failed = 0;
  onProgress(0, urls.length);
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next];
      next += 1;
      if (url === undefined) break;
      try {
        if (!(await cache.match(url))) {
          const response = await fetchFn(url, { credentials: 'same-origin' });
          if (response.ok) await cache.put(url, response);
          else failed += 1;
        }
      } catch {
        failed += 1;
      }
      done += 1;
      onProgress(done, urls.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  return { done, failed };
}
