// 'Download do Mapa' from a project's basemap package (issue 23): the plan over the zones at every zoom up to 19,
// the estimate said beforehand, the 404s of an archive with holes, a cut download resumed, the storage panel's record.
import { describe, expect, it } from 'vitest';
import { type MapaBase, mapaBaseTileTemplate } from '@novus/domain/api/mapa-base';
import type { LocalProjeto } from '../src/offline/db';
import { baixarMapa, readMapas, removerMapa } from '../src/offline/mapas';
import { cachedTiles, projetosMissingTiles } from '../src/offline/readiness';
import { MAPA_TEXTS, mapasTotalText, mapaText } from '../src/offline/storage-panel';
import {
  countTilesForBboxes,
  downloadTiles,
  formatBytes,
  latToTileY,
  lngToTileX,
  planMapaBase,
  planProjeto,
  TILE_CACHE,
  TILE_TEXTS,
  tilesForBboxes,
  tileUrl,
} from '../src/offline/tiles';
import { MemoryCaches, TEST_ORIGIN } from './support/memory-caches';

const MB = 1024 ** 2;
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
const BOX = { south: -25.44, north: -25.43, west: -49.28, east: -49.27 };
const PROJETO = '7d3c1f0e-52a4-4b8e-9a55-2f0f4c7a1b11';

/** The world raster of the realworld folder: zoom 0–3, 85 tiles in 716 kB. */
const mapa = (changes: Partial<MapaBase> = {}): MapaBase => ({
  origem: 'arquivo',
  nome: 'stamen-toner-raster-z0-3.pmtiles',
  tipo: 'png',
  vetorial: false,
  minZoom: 0,
  maxZoom: 3,
  limites: { oeste: -180, sul: -85.0511, leste: 180, norte: 85.0511 },
  tamanho: 716_052,
  blocos: 85,
  versao: 'v1',
  atribuicao: null,
  camadas: [],
  zonasDescobertas: [],
  ...changes,
});

const projeto = (changes: Partial<LocalProjeto> = {}): LocalProjeto => ({
  id: PROJETO,
  nome: 'Projeto Centro',
  fluxos: ['hc'],
  zonas: [ZONA_CENTRO],
  mapaBase: mapa(),
  ...changes,
});

describe('the plan of a package', () => {
  it('takes the zones at every zoom the archive has', () => {
    const plan = planMapaBase([ZONA_CENTRO], mapa(), undefined);
    expect(plan.error).toBeUndefined();
    expect(plan.tiles).toEqual([
      { z: 0, x: 0, y: 0 },
      { z: 1, x: 0, y: 1 },
      { z: 2, x: 1, y: 2 },
      { z: 3, x: lngToTileX(-49.275, 3), y: latToTileY(-25.435, 3) },
    ]);
    // the archive's mean tile size times the tiles
    expect(plan.bytes).toBe(Math.round((4 * 716_052) / 85));
  });

  it('stops at zoom 19: past it the map overzooms', () => {
    const plan = planMapaBase([ZONA_CENTRO], mapa({ minZoom: 12, maxZoom: 22 }), undefined);
    expect([...new Set(plan.tiles.map((tile) => tile.z))]).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
    expect(plan.tiles.filter((tile) => tile.z === 19)).toHaveLength(tilesForBboxes([BOX], 19).length);
  });

  it('keeps to the archive bounds and says when they miss the zones', () => {
    const half = mapa({
      minZoom: 19,
      maxZoom: 19,
      limites: { oeste: -50, sul: -26, leste: -49.275, norte: -25 },
    });
    expect(planMapaBase([ZONA_CENTRO], half, undefined).tiles).toEqual(
      tilesForBboxes([{ ...BOX, east: -49.275 }], 19),
    );
    const california = mapa({ limites: { oeste: -119, sul: 36.4, leste: -118.1, norte: 36.8 } });
    expect(planMapaBase([ZONA_CENTRO], california, undefined)).toEqual({
      tiles: [],
      error: TILE_TEXTS.notCovered,
    });
    expect(planMapaBase([{ _id: 'z', label: 'sem polígono' }], mapa(), undefined).error).toBe(
      TILE_TEXTS.noZones,
    );
  });

  it('refuses past the project limit, counting the tiles without listing them', () => {
    const deep = mapa({ minZoom: 0, maxZoom: 19 });
    const all = planMapaBase([ZONA_CENTRO], deep, undefined).tiles.length;
    expect(all).toBeGreaterThan(250);
    expect(planMapaBase([ZONA_CENTRO], deep, 100)).toEqual({
      tiles: [],
      error: TILE_TEXTS.tooMany(all, 100),
    });
    expect(planMapaBase([ZONA_CENTRO], deep, all).tiles).toHaveLength(all);
  });

  it('counts the tiles of overlapping zones once, as the list has them', () => {
    const boxes = [BOX, { south: -25.435, north: -25.42, west: -49.275, east: -49.26 }, BOX];
    const tiles = tilesForBboxes(boxes, 19);
    expect(new Set(tiles.map(({ x, y }) => `${x}/${y}`)).size).toBe(tiles.length);
    expect(countTilesForBboxes(boxes, 19)).toBe(tiles.length);
    expect(countTilesForBboxes([BOX], 19)).toBeLessThan(tiles.length);
  });

  it('draws from the package when the project has one, else from the server source', () => {
    const withPackage = planProjeto(projeto(), '/tiles/{z}/{x}/{y}.png');
    expect(withPackage.source).toEqual({ template: mapaBaseTileTemplate(PROJETO, mapa()), pacote: true });
    expect(withPackage.plan.tiles).toHaveLength(4);
    const without = planProjeto(projeto({ mapaBase: null }), '/tiles/{z}/{x}/{y}.png');
    expect(without.source).toEqual({ template: '/tiles/{z}/{x}/{y}.png', pacote: false });
    expect(without.plan.tiles.every((tile) => tile.z === 19)).toBe(true);
    expect(planProjeto(projeto({ mapaBase: null }), null)).toEqual({
      plan: { tiles: [], error: TILE_TEXTS.notConfigured },
      source: null,
    });
  });
});

describe('the estimate', () => {
  it('says the tiles and about how many megabytes', () => {
    expect(TILE_TEXTS.estimate(1234, 12 * MB)).toBe('Serão baixados 1.234 blocos (cerca de 12 MB).');
    expect(TILE_TEXTS.estimate(4, 33_700)).toBe('Serão baixados 4 blocos (cerca de 33 kB).');
    expect(formatBytes(3.44 * MB)).toBe('3,4 MB');
    expect(formatBytes(0)).toBe('0 kB');
    expect(formatBytes(10)).toBe('1 kB');
  });
});

const tile = (body: string) =>
  new Response(body, { headers: { 'Content-Type': 'image/png', 'Content-Encoding': 'gzip' } });

describe('downloading from a package', () => {
  it('counts a 404 as a tile the archive does not have, not as a failure', async () => {
    const caches = new MemoryCaches();
    const fetched: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      const url = String(input);
      fetched.push(url);
      if (url.endsWith('/2')) return new Response('', { status: 404 });
      if (url.endsWith('/3')) return new Response('', { status: 500 });
      if (url.endsWith('/4')) throw new TypeError('Failed to fetch');
      return tile('12345');
    };
    const urls = ['/t/1', '/t/2', '/t/3', '/t/4', '/t/5'];
    const result = await downloadTiles(urls, () => undefined, {
      cacheStorage: caches.storage,
      fetchFn,
      absentIsDone: true,
      knownAbsent: new Set(['/t/5']),
    });
    expect({ ...result, absent: result.absent.sort() }).toEqual({
      done: 5,
      failed: 2,
      stored: 1,
      bytes: 5,
      absent: ['/t/2', '/t/5'],
    });
    expect(fetched).not.toContain('/t/5');
    const stored = await (await caches.open(TILE_CACHE)).match('/t/1');
    // stored as fetch decoded it: no transfer encoding left to mislead the service worker
    expect(stored?.headers.get('content-encoding')).toBeNull();
    expect(stored?.headers.get('content-type')).toBe('image/png');
    // the server's own source: a 404 stays a failure (today's 'Mapa baixado com falhas')
    const plain = await downloadTiles(['/t/2'], () => undefined, { cacheStorage: caches.storage, fetchFn });
    expect(plain).toMatchObject({ failed: 1, absent: [] });
  });

  it('resumes a cut download without asking again for what it stored or what the archive lacks', async () => {
    const caches = new MemoryCaches();
    const deep = mapa({ minZoom: 0, maxZoom: 19, tamanho: 40 * MB, blocos: 4000 });
    const local = projeto({ mapaBase: deep });
    const { plan, source } = planProjeto(local, null);
    if (source === null) throw new Error('a package is a source');
    const total = plan.tiles.length;
    // the archive has no tiles at zoom 0: 404
    const lacking = (url: string) => url.includes('/mapa-base/0/');
    let budget = 100; // the signal goes after 100 requests
    const fetched: string[] = [];
    const fetchFn: typeof fetch = async (input) => {
      const url = String(input);
      if (budget <= 0) throw new TypeError('Failed to fetch');
      budget -= 1;
      fetched.push(url);
      return lacking(url) ? new Response('', { status: 404 }) : tile('0123456789');
    };
    const progress: string[] = [];
    const onProgress = (done: number, of: number) => progress.push(TILE_TEXTS.progress(done, of));
    const options = { cacheStorage: caches.storage, fetchFn, concurrency: 1, now: () => 1_700_000_000_000 };

    const cut = await baixarMapa(local, plan, source, onProgress, options);
    expect(cut.failed).toBe(total - 100);
    expect(cut.absent).toHaveLength(1);
    expect(progress.at(-1)).toBe(`Downloading: ${total} de ${total}`);
    const [partial] = await readMapas(caches.storage);
    expect(partial).toMatchObject({
      projeto: PROJETO,
      blocos: 99,
      bytes: 990,
      ausentes: ['0/0/0'],
      completo: false,
    });
    expect(mapaText(partial ?? fail())).toBe('Projeto Centro: 99 blocos, 1 kB (incompleto)');

    budget = Infinity;
    fetched.length = 0;
    const resumed = await baixarMapa(local, plan, source, onProgress, options);
    expect(resumed).toMatchObject({ done: total, failed: 0, stored: total - 1, bytes: (total - 1) * 10 });
    // only the tiles the cut left: neither the 99 stored nor the zoom-0 tile the archive lacks
    expect(fetched).toHaveLength(total - 100);
    expect(fetched.some(lacking)).toBe(false);
    expect(await readMapas(caches.storage)).toEqual([
      {
        projeto: PROJETO,
        nome: 'Projeto Centro',
        template: source.template,
        pacote: true,
        blocos: total - 1,
        bytes: (total - 1) * 10,
        ausentes: ['0/0/0'],
        completo: true,
        baixadoEm: 1_700_000_000_000,
      },
    ]);
  });

  it('drops the tiles of a replaced archive, and the storage panel can remove a map', async () => {
    const caches = new MemoryCaches();
    const fetchFn: typeof fetch = async () => tile('png');
    const options = { cacheStorage: caches.storage, fetchFn };
    const v1 = projeto();
    const first = planProjeto(v1, null);
    await baixarMapa(v1, first.plan, first.source ?? fail(), () => undefined, options);
    // another project's tiles and the server source's stay where they are
    const cache = await caches.open(TILE_CACHE);
    await cache.put('/api/projeto/outro/mapa-base/0/0/0?v=v1', tile('png'));
    await cache.put('/tiles/19/1/2.png', tile('png'));

    const v2 = projeto({ mapaBase: mapa({ versao: 'v2' }) });
    const second = planProjeto(v2, null);
    await baixarMapa(v2, second.plan, second.source ?? fail(), () => undefined, options);
    const packageUrls = [...cache.entries.keys()].filter((url) => url.includes(`/api/projeto/${PROJETO}/`));
    expect(packageUrls).toHaveLength(4);
    expect(packageUrls.every((url) => url.endsWith('?v=v2'))).toBe(true);

    await removerMapa(PROJETO, v2.zonas, caches.storage);
    expect(await readMapas(caches.storage)).toEqual([]);
    expect([...cache.entries.keys()].sort()).toEqual([
      `${TEST_ORIGIN}/api/projeto/outro/mapa-base/0/0/0?v=v1`,
      `${TEST_ORIGIN}/tiles/19/1/2.png`,
    ]);
  });

  it('keeps a record of a download from the server source too, and removes its tiles', async () => {
    const caches = new MemoryCaches();
    const local = projeto({ mapaBase: null, nome: 'Sem pacote' });
    const { plan, source } = planProjeto(local, '/tiles/{z}/{x}/{y}.png');
    await baixarMapa(local, plan, source ?? fail(), () => undefined, {
      cacheStorage: caches.storage,
      fetchFn: async () => tile('ab'),
    });
    const mapas = await readMapas(caches.storage);
    expect(mapas).toMatchObject([
      { nome: 'Sem pacote', pacote: false, blocos: plan.tiles.length, completo: true },
    ]);
    expect(mapasTotalText([...mapas, ...mapas])).toBe(
      `Total: 2 mapas, ${formatBytes(plan.tiles.length * 4)}`,
    );
    await removerMapa(PROJETO, local.zonas, caches.storage);
    expect((await caches.open(TILE_CACHE)).entries.size).toBe(0);
    expect(MAPA_TEXTS.remove('Sem pacote')).toBe('Remover o mapa de Sem pacote');
  });
});

describe('ready for the field with a package', () => {
  it('misses the project until each tile is stored or known absent', async () => {
    const caches = new MemoryCaches();
    const local = projeto();
    const { plan, source } = planProjeto(local, null);
    const options = { configured: false, origin: TEST_ORIGIN };
    const missing = async () => projetosMissingTiles([local], await cachedTiles(caches.storage), options);
    expect(await missing()).toEqual(['Projeto Centro']);

    // zoom 0 is missing from the archive: once the server said so, it is not missing from the phone
    const fetchFn: typeof fetch = async (input) =>
      String(input).includes('/mapa-base/0/') ? new Response('', { status: 404 }) : tile('png');
    await baixarMapa(local, plan, source ?? fail(), () => undefined, {
      cacheStorage: caches.storage,
      fetchFn,
    });
    expect(await missing()).toEqual([]);

    // a tile gone from the cache (or a new archive version) makes it missing again
    const cache = await caches.open(TILE_CACHE);
    await cache.delete(tileUrl(source?.template ?? '', { z: 3, x: 2, y: 4 }));
    expect(await missing()).toEqual(['Projeto Centro']);
    expect(
      projetosMissingTiles(
        [projeto({ mapaBase: mapa({ versao: 'v2' }) })],
        await cachedTiles(caches.storage),
        options,
      ),
    ).toEqual(['Projeto Centro']);
  });
});

function fail(): never {
  throw new Error('unexpected');
}
