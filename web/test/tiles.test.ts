// Tile math of 'Download do Mapa': zone boxes → zoom-19 tiles, the project's limit, the cache.
import { describe, expect, it } from 'vitest';
import {
  downloadTiles,
  latToTileY,
  lngToTileX,
  planDownload,
  TILE_CACHE,
  TILE_TEXTS,
  tilesForBboxes,
  tileUrl,
} from '../src/offline/tiles';

const ZONA_CENTRO = {
  _id: 'z1',
  label: 'Zona Centro',
  poligono: [
    { lat: -25.44, lng: -49.28 },
    { lat: -25.44, lng: -49.27 },
    { lat: -25.43, lng: -49.27 },
    { lat: -25.43, lng: -49.28 },
  ],
};

describe('tile math', () => {
  it('matches the slippy-map formula at known points', () => {
    expect(lngToTileX(0, 1)).toBe(1);
    expect(lngToTileX(-180, 3)).toBe(0);
    expect(latToTileY(0, 1)).toBe(1);
    // Brasília at zoom 19 (reference: the OSM wiki formula, computed apart in Python with asinh)
    expect(lngToTileX(-47.8828, 19)).toBe(192409);
    expect(latToTileY(-15.7939, 19)).toBe(285442);
  });

  it('lists each zoom-19 tile of a box once, also where boxes touch', () => {
    const box = { south: -25.44, north: -25.43, west: -49.28, east: -49.27 };
    const tiles = tilesForBboxes([box, box]);
    const xs = new Set(tiles.map((t) => t.x));
    const ys = new Set(tiles.map((t) => t.y));
    expect(xs.size).toBe(lngToTileX(-49.27, 19) - lngToTileX(-49.28, 19) + 1);
    expect(ys.size).toBe(latToTileY(-25.44, 19) - latToTileY(-25.43, 19) + 1);
    expect(tiles).toHaveLength(xs.size * ys.size);
    expect(tiles.every((t) => t.z === 19)).toBe(true);
  });

  it('refuses past the project limit and without a download source', () => {
    const plan = planDownload([ZONA_CENTRO], '/tiles/{z}/{x}/{y}.png', undefined);
    expect(plan.error).toBeUndefined();
    expect(plan.tiles.length).toBeGreaterThan(200);
    expect(planDownload([ZONA_CENTRO], '/tiles/{z}/{x}/{y}.png', 10).error).toBe(
      TILE_TEXTS.tooMany(plan.tiles.length, 10),
    );
    expect(planDownload([ZONA_CENTRO], null, undefined).error).toBe(TILE_TEXTS.notConfigured);
    expect(planDownload([{ _id: 'z', label: 'sem polígono' }], '/t/{z}/{x}/{y}', undefined).error).toBe(
      TILE_TEXTS.noZones,
    );
  });

  it('fills the URL template', () => {
    expect(tileUrl('/tiles/{z}/{x}/{y}.png', { z: 19, x: 5, y: 7 })).toBe('/tiles/19/5/7.png');
  });
});

class FakeCache {
  readonly stored = new Map<string, Response>();
  async match(url: string) {
    return this.stored.get(url);
  }
  async put(url: string, response: Response) {
    this.stored.set(url, response);
  }
}

describe('downloadTiles', () => {
  it('caches what the server has, counts what it has not, and skips what is cached', async () => {
    const cache = new FakeCache();
    const opened: string[] = [];
    const cacheStorage = {
      open: async (name: string) => {
        opened.push(name);
        return cache;
      },
    } as unknown as CacheStorage; // only open() is used
    const fetched: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      fetched.push(String(input));
      return String(input).endsWith('3.png') ? new Response('', { status: 404 }) : new Response('png');
    };
    const progress: string[] = [];
    const urls = ['/t/1.png', '/t/2.png', '/t/3.png'];
    const result = await downloadTiles(urls, (d, t) => progress.push(TILE_TEXTS.progress(d, t)), {
      cacheStorage,
      fetchFn,
      concurrency: 2,
    });
    expect(opened).toEqual([TILE_CACHE]);
    expect(result).toEqual({ done: 3, failed: 1, stored: 2, bytes: 6, absent: [] });
    expect([...cache.stored.keys()].sort()).toEqual(['/t/1.png', '/t/2.png']);
    expect(progress.at(-1)).toBe('Downloading: 3 de 3');
    fetched.length = 0;
    await downloadTiles(urls, () => undefined, { cacheStorage, fetchFn });
    expect(fetched).toEqual(['/t/3.png']);
  });
});
