// 'Pronto para uso offline': the app shell in the service worker's cache, the projects, each project's map.
import { describe, expect, it } from 'vitest';
import type { LocalProjeto } from '../src/offline/db';
import {
  appShellCached,
  appShellUrls,
  htmlAssets,
  cachedTiles,
  projetosMissingTiles,
  READINESS_TEXTS,
  summarizeReadiness,
  tileKeyOf,
  waitForAppShell,
} from '../src/offline/readiness';
import { tilesForBboxes, TILE_CACHE } from '../src/offline/tiles';

const ORIGIN = 'http://127.0.0.1:3000';
/** index.html as Vite writes it. */
const INDEX_HTML = `<!doctype html>
<html lang="pt-BR">
  <head>
    <link rel="icon" type="image/png" href="/pwa-192x192.png" />
    <script type="module" crossorigin src="/assets/index-Bx1y2z3a.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/services-y3RLLmp_.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Ck9d8e7f.css">
    <script src="https://cdn.example.com/x.js"></script>
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body><div id="root"></div></body>
</html>`;
const ASSETS = [
  '/assets/index-Bx1y2z3a.js',
  '/assets/services-y3RLLmp_.js',
  '/assets/index-Ck9d8e7f.css',
  'https://cdn.example.com/x.js',
];

/** A Cache Storage holding some URLs (body by URL), matched as Workbox's precache keys them. */
function cacheStorageWith(entries: Record<string, string>): CacheStorage {
  const strip = (url: string) => url.split('?')[0];
  const fake: Pick<CacheStorage, 'match' | 'has' | 'open'> = {
    async match(request, options) {
      const url = typeof request === 'string' ? request : request instanceof URL ? request.href : request.url;
      const hit = Object.keys(entries).find((key) =>
        options?.ignoreSearch ? strip(key) === strip(url) : key === url,
      );
      return hit === undefined ? undefined : new Response(entries[hit]);
    },
    async has() {
      return false;
    },
    async open() {
      return { keys: async () => [] } as unknown as Cache; // only keys() is read
    },
  };
  return fake as CacheStorage; // the checks call only match, has and open
}

function serviceWorkerWith(active: boolean): ServiceWorkerContainer {
  const registration = { active: active ? {} : null };
  return { getRegistration: async () => registration } as unknown as ServiceWorkerContainer; // only getRegistration is read
}

describe('the app shell', () => {
  it('is the page and the same-origin scripts, module preloads and styles it loads', () => {
    expect(htmlAssets(INDEX_HTML)).toEqual(ASSETS);
    expect(appShellUrls(ASSETS, ORIGIN)).toEqual([
      `${ORIGIN}/index.html`,
      `${ORIGIN}/assets/index-Bx1y2z3a.js`,
      `${ORIGIN}/assets/services-y3RLLmp_.js`,
      `${ORIGIN}/assets/index-Ck9d8e7f.css`,
    ]);
  });

  it('is cached only with an active service worker and the cached page with every asset it loads', async () => {
    const all: Record<string, string> = {
      [`${ORIGIN}/index.html?__WB_REVISION__=abc123`]: INDEX_HTML,
      [`${ORIGIN}/assets/index-Bx1y2z3a.js`]: 'js',
      [`${ORIGIN}/assets/services-y3RLLmp_.js`]: 'js',
      [`${ORIGIN}/assets/index-Ck9d8e7f.css`]: 'css',
    };
    const without = (suffix: string) =>
      Object.fromEntries(Object.entries(all).filter(([url]) => !url.includes(suffix)));
    const check = (active: boolean, entries: Record<string, string>) =>
      appShellCached({
        serviceWorker: serviceWorkerWith(active),
        cacheStorage: cacheStorageWith(entries),
        origin: ORIGIN,
      });
    expect(await check(true, all)).toBe(true);
    // still installing: no active worker
    expect(await check(false, all)).toBe(false);
    // active but the main bundle, a preloaded chunk, the styles or the page itself missing
    expect(await check(true, without('index-Bx1y2z3a.js'))).toBe(false);
    expect(await check(true, without('services-'))).toBe(false);
    expect(await check(true, without('.css'))).toBe(false);
    expect(await check(true, without('index.html'))).toBe(false);
  });

  it('is not cached where the browser has no service worker', async () => {
    expect(
      await appShellCached({ serviceWorker: undefined, cacheStorage: cacheStorageWith({}), origin: ORIGIN }),
    ).toBe(false);
  });

  it('is waited for until cached, or until the time runs out', async () => {
    let calls = 0;
    expect(await waitForAppShell(5_000, async () => (calls += 1) >= 3, 1)).toBe(true);
    expect(calls).toBe(3);
    expect(await waitForAppShell(20, async () => false, 5)).toBe(false);
    // a check that throws counts as not yet
    expect(await waitForAppShell(20, () => Promise.reject(new Error('no caches')), 5)).toBe(false);
    // the home left: stop polling
    expect(
      await waitForAppShell(
        5_000,
        async () => false,
        1,
        () => true,
      ),
    ).toBe(false);
  });
});

const ZONA = {
  _id: 'z1',
  label: 'Zona Centro',
  poligono: [
    { lat: -25.436, lng: -49.276 },
    { lat: -25.436, lng: -49.275 },
    { lat: -25.435, lng: -49.275 },
    { lat: -25.435, lng: -49.276 },
  ],
};
const projeto = (changes: Partial<LocalProjeto> = {}): LocalProjeto => ({
  id: 'p1',
  nome: 'Projeto Centro',
  fluxos: ['hc'],
  zonas: [ZONA],
  ...changes,
});

describe('the map tiles', () => {
  const tiles = tilesForBboxes([{ south: -25.436, north: -25.435, west: -49.276, east: -49.275 }]);
  const keys = tiles.map(({ z, x, y }) => `${z}/${x}/${y}`);

  it('reads z/x/y from any tile URL', () => {
    expect(tileKeyOf('http://127.0.0.1:3000/tiles/19/190710/297432.png')).toBe('19/190710/297432');
    expect(tileKeyOf('https://tile.example.com/19/1/2@2x.webp')).toBe('19/1/2');
    expect(tileKeyOf('https://tile.example.com/api/config')).toBeNull();
  });

  const cachedKeys = (list: string[]) => ({ keys: new Set(list), urls: new Set<string>(), mapas: [] });
  const options = { configured: true, origin: ORIGIN };

  it('misses a project until every tile of its zones is cached', () => {
    expect(keys.length).toBeGreaterThan(1);
    expect(projetosMissingTiles([projeto()], cachedKeys(keys), options)).toEqual([]);
    expect(projetosMissingTiles([projeto()], cachedKeys(keys.slice(1)), options)).toEqual(['Projeto Centro']);
    // no zones, or above its download limit: there is nothing the technician could download
    expect(projetosMissingTiles([projeto({ zonas: [] })], cachedKeys([]), options)).toEqual([]);
    expect(projetosMissingTiles([projeto({ limiteDownload: 1 })], cachedKeys([]), options)).toEqual([]);
    // a server without a download source: nothing to download either
    expect(projetosMissingTiles([projeto()], cachedKeys([]), { ...options, configured: false })).toEqual([]);
  });

  it('finds the cached tiles in the tile cache', async () => {
    const urls = keys.map((key) => `${ORIGIN}/tiles/${key}.png`);
    const storage = cacheStorageWith({});
    expect(await cachedTiles(storage)).toEqual({ keys: new Set(), urls: new Set(), mapas: [] });
    const withTiles = {
      ...storage,
      has: async (name: string) => name === TILE_CACHE,
      open: async () => ({ keys: async () => urls.map((url) => new Request(url)) }),
    } as unknown as CacheStorage; // only has and open are read
    expect(await cachedTiles(withTiles)).toEqual({ keys: new Set(keys), urls: new Set(urls), mapas: [] });
  });
});

describe('the summary', () => {
  it('says ready only when nothing is missing', () => {
    expect(summarizeReadiness({ app: true, projetos: true, mapas: [] })).toEqual({
      ready: true,
      title: 'Pronto para uso offline',
      missing: [],
    });
  });

  it('lists what is missing', () => {
    const summary = summarizeReadiness({ app: false, projetos: false, mapas: ['Projeto Centro'] });
    expect(summary.ready).toBe(false);
    expect(summary.title).toBe(READINESS_TEXTS.notReady);
    expect(summary.missing).toEqual([
      'o aplicativo (mantenha a conexão até ele ser salvo)',
      'os projetos (Sincronizar)',
      'o mapa de Projeto Centro (Download do Mapa)',
    ]);
  });
});
