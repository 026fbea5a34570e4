// The technician's map from the project's basemap package (issue 23): 'Download do Mapa' says beforehand how many
// tiles and megabytes, stores the zone's tiles at every zoom the package has up to 19, resumes a cut download
// without fetching again what it stored, and offline, after a reload, the map step draws the package's own pixels
// (overzoomed past its last zoom), not a grey map. The storage panel shows the map's size and removes it.
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { gridPng, tilesOverBbox, writePmtiles, zoomColour } from '../../server/test/support/pmtiles';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, openProjetoMenu, signInSynced } from '../support/collect-pages';
import {
  type CollectWorld,
  GPS,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { type CamadaMvt, encodeMvt, retangulo } from '../support/mvt';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

/** A real world raster (Stamen Toner, zoom 0–3): it covers Brazil, at a zoom far from the street. */
const TONER = path.resolve(
  import.meta.dirname,
  '../../../shared/realworld/pmtiles/stamen-toner-raster-z0-3.pmtiles',
);
const TILE_ROUTE = /\/api\/projeto\/[^/]+\/mapa-base\/\d+\/\d+\/\d+(\?|$)/;
/** Leaflet's background where no tile is drawn. */
const LEAFLET_GREY: Rgb = [221, 221, 221];
/** The street lines of the packages made here. */
const LINE: Rgb = [60, 60, 60];

type Rgb = [number, number, number];

interface MapaBase {
  tipo: string;
  vetorial: boolean;
  minZoom: number;
  maxZoom: number;
  tamanho: number;
  blocos: number;
  versao: string;
}

const worlds: CollectWorld[] = [];
test.afterAll(async () => {
  for (const world of worlds) await world.admin.dispose();
});

async function newWorld(): Promise<CollectWorld> {
  const world = await setUpWorld();
  worlds.push(world);
  return world;
}

/** The administrator sends the archive as the project form does: the raw file, no form. */
async function uploadPackage(
  admin: APIRequestContext,
  projetoId: string,
  bytes: Uint8Array,
  nome: string,
): Promise<MapaBase> {
  const response = await admin.put(`/api/projeto/${projetoId}/mapa-base?nome=${encodeURIComponent(nome)}`, {
    data: Buffer.from(bytes),
    headers: { 'Content-Type': 'application/vnd.pmtiles' },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as MapaBase;
}

/** The technician's zone as [west, south, east, north], from the project the server holds. */
async function zoneBbox(world: CollectWorld): Promise<[number, number, number, number]> {
  const detail = (await (await world.admin.get(`/api/projeto/${world.projetoId}`)).json()) as {
    zonas: { _id: string; poligono: { lat: number; lng: number }[] }[];
  };
  const ring = detail.zonas.find((zona) => zona._id === world.zonaId)?.poligono ?? [];
  const lats = ring.map((p) => p.lat);
  const lngs = ring.map((p) => p.lng);
  return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
}

/** A package made over the zone: a street-like grid per tile, in a colour that tells its zoom. */
function zonePackage(
  bbox: [number, number, number, number],
  zooms: number[],
): { bytes: Uint8Array; tiles: number } {
  const tiles = tilesOverBbox(bbox, zooms, (z) => gridPng(zoomColour(z), LINE));
  return {
    bytes: writePmtiles({
      tiles,
      tileType: 'png',
      minZoom: 12,
      maxZoom: 19,
      bounds: bbox,
      metadata: { name: 'Zona Centro', attribution: 'Novus e2e' },
    }),
    tiles: tiles.length,
  };
}

/** Signs in, syncs (the projects and their packages come down), and opens the pole wizard's map step. */
async function openMapStep(page: Page, world: CollectWorld): Promise<void> {
  // the app shell must be in the service worker before the network goes
  await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await (await openProjetoMenu(page, world.projetoNome)).getByRole('link', { name: 'Poste' }).click();
  await expect(page.getByRole('button', { name: 'Download do Mapa' })).toBeVisible();
}

/** What the phone shows with the page scrolled to its end (the wizard's bar sticks to the screen's bottom). */
async function viewportShot(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Download do Mapa' }).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.screenshot({ path: path.join(import.meta.dirname, '..', 'screenshots', `${name}.png`) });
}

/** 'cerca de …' as the device rounds the estimate (tiles × the archive's mean tile size). */
function estimateSize(tiles: number, mapa: MapaBase): string {
  const bytes = Math.round((tiles * mapa.tamanho) / mapa.blocos);
  if (bytes < 1024 ** 2) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('pt-BR')} kB`;
  const mb = bytes / 1024 ** 2;
  return `${mb.toLocaleString('pt-BR', { maximumFractionDigits: mb < 10 ? 1 : 0 })} MB`;
}

interface PixelSample {
  at: [number, number];
  /** The map as the screen shows it. */
  shown: Rgb;
  /** The package tile's own pixel at that spot (null where no tile of the layer lies). */
  tile: Rgb | null;
  src: string | null;
}

/**
 * Samples the map away from its controls and markers: the screenshot's pixel, and the pixel of the package's tile
 * image under it, read from the image itself (same origin, so a canvas may read it). Past the package's last zoom
 * a tile is a canvas cut from its ancestor's image, and says which image and which part of it.
 */
async function samplePackagePixels(page: Page): Promise<PixelSample[]> {
  const map = page.locator('.leaflet-container');
  const shot = (await map.screenshot()).toString('base64');
  return page.evaluate(async (png) => {
    const container = document.querySelector('.leaflet-container');
    if (!container) throw new Error('no map');
    const box = container.getBoundingClientRect();
    const pixelOf = async (src: string, at: (width: number, height: number) => [number, number]) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.drawImage(image, 0, 0);
      const [x, y] = at(image.naturalWidth, image.naturalHeight);
      const clamp = (v: number, max: number) => Math.max(0, Math.min(max - 1, Math.floor(v)));
      const [r, g, b] = context.getImageData(clamp(x, canvas.width), clamp(y, canvas.height), 1, 1).data;
      return [r ?? 0, g ?? 0, b ?? 0] as [number, number, number];
    };
    const scale = await (async () => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      return image.naturalWidth / box.width;
    })();
    const tiles = Array.from(document.querySelectorAll<HTMLElement>('.mapa-base .leaflet-tile-loaded'));
    const spots: [number, number][] = [
      [0.3, 0.3],
      [0.7, 0.35],
      [0.2, 0.7],
      [0.75, 0.7],
      [0.5, 0.85],
    ];
    return Promise.all(
      spots.map(async ([fx, fy]) => {
        const x = box.left + box.width * fx;
        const y = box.top + box.height * fy;
        const shown = await pixelOf(`data:image/png;base64,${png}`, () => [
          (x - box.left) * scale,
          (y - box.top) * scale,
        ]);
        const under = tiles.find((tile) => {
          const rect = tile.getBoundingClientRect();
          return x >= rect.left && x < rect.right && y >= rect.top && y < rect.bottom;
        });
        if (!under) return { at: [fx, fy] as [number, number], shown, tile: null, src: null };
        const rect = under.getBoundingClientRect();
        const u = (x - rect.left) / rect.width;
        const v = (y - rect.top) / rect.height;
        const src = under instanceof HTMLImageElement ? under.src : (under.dataset.src ?? '');
        const crop = under.dataset.crop?.split(' ').map(Number);
        const tile = await pixelOf(src, (width, height) => {
          const [sx, sy, sw, sh] = crop ?? [0, 0, width, height];
          return [(sx ?? 0) + u * (sw ?? width), (sy ?? 0) + v * (sh ?? height)];
        });
        return { at: [fx, fy] as [number, number], shown, tile, src };
      }),
    );
  }, shot);
}

const near = (a: Rgb, b: Rgb, tolerance = 24) =>
  a.every((value, i) => Math.abs(value - (b[i] ?? 0)) <= tolerance);

/** The package layer's loaded tiles: the image each shows (its own, or its ancestor's past the last zoom). */
async function packageTiles(page: Page): Promise<{ src: string; width: number }[]> {
  return page
    .locator('.mapa-base .leaflet-tile-loaded')
    .evaluateAll((tiles) =>
      tiles.map((tile) =>
        tile instanceof HTMLImageElement
          ? { src: tile.src, width: tile.naturalWidth }
          : { src: (tile as HTMLCanvasElement).dataset.src ?? '', width: (tile as HTMLCanvasElement).width },
      ),
    );
}

test('the world raster package: the zone downloaded, drawn offline after a reload, overzoomed from zoom 3', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const world = await newWorld();
  const mapa = await uploadPackage(
    world.admin,
    world.projetoId,
    fs.readFileSync(TONER),
    'stamen-toner-raster-z0-3.pmtiles',
  );
  expect(mapa).toMatchObject({ tipo: 'png', vetorial: false, minZoom: 0, maxZoom: 3 });
  await openMapStep(page, world);

  // before anything is fetched: one tile per zoom over the zone, about 33 kB
  await expect(page.getByTestId('estimativa-mapa')).toHaveText(
    `Serão baixados 4 blocos (cerca de ${estimateSize(4, mapa)}).`,
  );
  await expectAccessible(page, 'download do mapa do projeto');
  await viewportShot(page, 'tecnico-mapa-base-download');

  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText('Mapa baixado: 4 blocos disponíveis sem internet.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Downloading: 4 de 4')).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('.leaflet-container')).toBeVisible();
  await expect(
    page.locator('.leaflet-control-layers-base label', { hasText: 'Mapa do projeto' }).locator('input'),
  ).toBeChecked();
  await expect(page.locator('.mapa-base .leaflet-tile-loaded').first()).toBeVisible({ timeout: 15_000 });
  const tiles = await packageTiles(page);
  expect(tiles.length).toBeGreaterThan(0);
  for (const tile of tiles) {
    // zoom 19 on the screen, the package's zoom-3 tile under it, decoded from the device's cache
    expect(tile.src).toContain(`/api/projeto/${world.projetoId}/mapa-base/3/`);
    expect(tile.width).toBeGreaterThan(0);
  }
  // sampled again until the tiles have faded in (Leaflet's 200 ms opacity transition after a tile loads)
  await expect(async () => {
    const samples = await samplePackagePixels(page);
    for (const sample of samples) {
      expect(sample.tile, `a package tile under ${sample.at.join(',')}`).not.toBeNull();
      expect(near(sample.shown, sample.tile ?? LEAFLET_GREY), JSON.stringify(sample)).toBe(true);
      expect(near(sample.shown, LEAFLET_GREY, 4), JSON.stringify(sample)).toBe(false);
    }
  }).toPass({ timeout: 10_000 });
  await expectAccessible(page, 'mapa do projeto offline');
  await screenshot(page, 'tecnico-mapa-base-offline-z3');

  // Zoomed out to the region (zoom 6, still 8 times the package's last zoom): the coast and the sea, offline.
  for (let zoom = 19; zoom > 6; zoom -= 1) {
    await page.getByRole('button', { name: 'Zoom out' }).click();
    // one zoom at a time: Leaflet drops a click that comes during its 250 ms zoom animation
    await page.waitForTimeout(350);
    await expect(page.locator('.leaflet-map-pane')).not.toHaveClass(/leaflet-zoom-anim/);
  }
  await expect(page.locator('.mapa-base .leaflet-tile-loaded').first()).toBeVisible();
  await expect(async () => {
    const region = await samplePackagePixels(page);
    for (const sample of region) {
      expect(near(sample.shown, sample.tile ?? LEAFLET_GREY), JSON.stringify(sample)).toBe(true);
    }
  }).toPass({ timeout: 10_000 });
  for (const tile of await packageTiles(page)) expect(tile.src).toContain('/mapa-base/3/');
  await screenshot(page, 'tecnico-mapa-base-offline-z6');
  await context.setOffline(false);
});

test('a package over the zone up to zoom 19 carries the street-level map offline', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const world = await newWorld();
  const bbox = await zoneBbox(world);
  const pacote = zonePackage(bbox, [12, 13, 14, 15, 16, 17, 18, 19]);
  const mapa = await uploadPackage(world.admin, world.projetoId, pacote.bytes, 'zona-centro-z12-19.pmtiles');
  expect(mapa).toMatchObject({ tipo: 'png', minZoom: 12, maxZoom: 19, blocos: pacote.tiles });
  await openMapStep(page, world);

  const total = pacote.tiles;
  await expect(page.getByTestId('estimativa-mapa')).toHaveText(
    `Serão baixados ${total.toLocaleString('pt-BR')} blocos (cerca de ${estimateSize(total, mapa)}).`,
  );
  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText(`Mapa baixado: ${total} blocos disponíveis sem internet.`)).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(`Downloading: ${total} de ${total}`)).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('.mapa-base .leaflet-tile-loaded').first()).toBeVisible({ timeout: 15_000 });
  const tiles = await packageTiles(page);
  expect(tiles.length).toBeGreaterThan(1);
  for (const tile of tiles) {
    expect(tile.src).toContain(`/api/projeto/${world.projetoId}/mapa-base/19/`);
    expect(tile.width).toBe(256);
  }
  // the zoom-19 colour (or its street lines) wherever the map is sampled: the package's own tiles
  // sampled again until the tiles have faded in (Leaflet's 200 ms opacity transition after a tile loads)
  await expect(async () => {
    const samples = await samplePackagePixels(page);
    for (const sample of samples) {
      expect(sample.tile, JSON.stringify(sample)).not.toBeNull();
      expect(near(sample.shown, sample.tile ?? LEAFLET_GREY), JSON.stringify(sample)).toBe(true);
    }
    expect(samples.filter((sample) => near(sample.shown, zoomColour(19))).length).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 10_000 });
  await expectAccessible(page, 'mapa do projeto na rua offline');
  await screenshot(page, 'tecnico-mapa-base-offline-z19');
  await context.setOffline(false);
});

test('a cut download resumes without fetching again what it stored; the storage panel shows and removes the map', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const world = await newWorld();
  const bbox = await zoneBbox(world);
  // zoom 13 left out: the archive answers 404 there, which is no failure and is not asked again
  const pacote = zonePackage(bbox, [12, 14, 15, 16, 17, 18, 19]);
  await uploadPackage(world.admin, world.projetoId, pacote.bytes, 'zona-centro-sem-z13.pmtiles');
  await openMapStep(page, world);
  const planned = Number(
    /Serão baixados ([\d.]+) blocos/
      .exec((await page.getByTestId('estimativa-mapa').textContent()) ?? '')?.[1]
      ?.replace(/\./g, ''),
  );
  const absent = planned - pacote.tiles;
  expect(absent).toBeGreaterThan(0);

  // The signal goes after 40 tiles: the rest of the first press fails.
  const CUT = 40;
  const first: string[] = [];
  const second: string[] = [];
  let phase: 'first' | 'second' = 'first';
  await context.route(TILE_ROUTE, async (route) => {
    const url = route.request().url();
    if (phase === 'second') {
      second.push(url);
      return route.continue();
    }
    if (first.length >= CUT) return route.abort('internetdisconnected');
    first.push(url);
    return route.continue();
  });

  const download = page.getByRole('button', { name: 'Download do Mapa' });
  await download.click();
  const interrupted = page.getByText(
    /^Download interrompido: (\d+) de (\d+) blocos ficaram por baixar\. Toque em Download do Mapa de novo para continuar de onde parou\.$/,
  );
  await expect(interrupted).toBeVisible({ timeout: 60_000 });
  expect(first).toHaveLength(CUT);
  const [, left, of] = /(\d+) de (\d+)/.exec((await interrupted.textContent()) ?? '') ?? [];
  expect([Number(left), Number(of)]).toEqual([planned - CUT, planned]);
  expect(first.filter((url) => url.includes('/mapa-base/13/')).length).toBeGreaterThan(0);

  phase = 'second';
  await download.click();
  await expect(page.getByText(`Mapa baixado: ${planned} blocos disponíveis sem internet.`)).toBeVisible({
    timeout: 60_000,
  });
  // only what the cut left: nothing stored before, nor the zoom-13 tiles the archive said it lacks
  expect(second).toHaveLength(Number(left));
  expect(second.filter((url) => first.includes(url))).toEqual([]);
  expect(second.filter((url) => url.includes('/mapa-base/13/'))).toEqual([]);
  await context.unroute(TILE_ROUTE);

  // The home: ready for the field, and the storage panel with the map's size and a way to remove it.
  await page.goto('/');
  await expect(page.getByTestId('pronto-offline')).toHaveText('Pronto para uso offline');
  const row = page.getByTestId('mapa-baixado');
  await expect(row).toHaveText(
    new RegExp(`^${world.projetoNome}: ${planned - absent} blocos, \\d+(,\\d)? (kB|MB)$`),
  );
  await expectAccessible(page, 'home com mapa baixado');
  await screenshot(page, 'tecnico-mapas-baixados');

  await page.getByRole('button', { name: `Remover o mapa de ${world.projetoNome}` }).click();
  await expect(page.getByTestId('status-mapas')).toHaveText(
    `Mapa de ${world.projetoNome} removido do aparelho.`,
  );
  await expect(page.getByText('Nenhum mapa baixado (Download do Mapa, no passo do mapa).')).toBeVisible();
  await expect(page.getByTestId('pronto-offline')).toContainText(
    `Falta: o mapa de ${world.projetoNome} (Download do Mapa).`,
  );
  const remaining = await page.evaluate(async () => {
    const cache = await caches.open('novus-tiles');
    return (await cache.keys())
      .map((request) => request.url)
      .filter((url) => url.includes('/mapa-base/') || url.includes('/novus-mapas/'));
  });
  expect(remaining).toEqual([]);
});

/** A vector package over the zone in the Protomaps schema: land, a lake beside the GPS fix, a named street. */
function vectorPackage(bbox: [number, number, number, number]): Uint8Array {
  const { latitude: lat, longitude: lng } = GPS;
  const camadas: CamadaMvt[] = [
    {
      nome: 'earth',
      elementos: [{ geometria: { tipo: 'poligono', aneis: [retangulo(bbox)] }, props: { kind: 'earth' } }],
    },
    {
      nome: 'water',
      elementos: [
        {
          geometria: {
            tipo: 'poligono',
            aneis: [retangulo([lng + 0.0002, lat - 0.0008, lng + 0.0015, lat - 0.0002])],
          },
          props: { kind: 'lake', name: 'Lago do Passeio' },
        },
      ],
    },
    {
      nome: 'roads',
      elementos: [
        {
          geometria: {
            tipo: 'linha',
            linha: [
              [bbox[0], lat + 0.0002],
              [bbox[2], lat + 0.0002],
            ],
          },
          props: { kind: 'minor_road', min_zoom: 12, name: 'Rua das Araucárias' },
        },
      ],
    },
  ];
  return writePmtiles({
    tileType: 'mvt',
    tiles: tilesOverBbox(bbox, [12, 13, 14, 15], (z, x, y) => encodeMvt(camadas, z, x, y)),
    tileCompression: 'gzip',
    bounds: bbox,
    metadata: {
      name: 'Zona Centro',
      vector_layers: camadas.map((camada) => ({ id: camada.nome, fields: {} })),
    },
  });
}

/** Pixels of the Protomaps 'light' land and water colours in the vector layer's canvases. */
async function vectorColours(page: Page): Promise<{ terra: number; agua: number }> {
  return page.evaluate(() => {
    const count = { terra: 0, agua: 0 };
    const colours = { terra: [0xe2, 0xdf, 0xda], agua: [0x80, 0xde, 0xea] } as const;
    for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('.mapa-vetorial canvas'))) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0) continue;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        for (const name of ['terra', 'agua'] as const) {
          const [r, g, b] = colours[name];
          if (
            Math.abs((data[i] ?? 0) - r) <= 6 &&
            Math.abs((data[i + 1] ?? 0) - g) <= 6 &&
            Math.abs((data[i + 2] ?? 0) - b) <= 6
          )
            count[name] += 1;
        }
      }
    }
    return count;
  });
}

test('a vector package is downloaded and drawn offline as a street map, its tiles fetched by the page from the cache', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const world = await newWorld();
  const bbox = await zoneBbox(world);
  const mapa = await uploadPackage(
    world.admin,
    world.projetoId,
    vectorPackage(bbox),
    'zona-centro-vetorial.pmtiles',
  );
  expect(mapa).toMatchObject({ tipo: 'mvt', vetorial: true, minZoom: 12, maxZoom: 15 });
  await openMapStep(page, world);
  const total = mapa.blocos;
  await expect(page.getByTestId('estimativa-mapa')).toHaveText(
    `Serão baixados ${total} blocos (cerca de ${estimateSize(total, mapa)}).`,
  );
  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText(`Mapa baixado: ${total} blocos disponíveis sem internet.`)).toBeVisible({
    timeout: 60_000,
  });

  await context.setOffline(true);
  await page.reload();
  await expect(
    page.locator('.leaflet-control-layers-base label', { hasText: 'Mapa do projeto' }).locator('input'),
  ).toBeChecked();
  // zoom 19 drawn from the zoom-15 tiles: the land and the lake in the style's colours, the street named
  await expect
    .poll(
      async () => {
        const { terra, agua } = await vectorColours(page);
        return terra > 5_000 && agua > 1_000;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect
    .poll(async () => (await page.locator('.mapa-vetorial').first().getAttribute('data-rotulos')) ?? '')
    .toContain('Rua das Araucárias');
  await expectAccessible(page, 'mapa vetorial do projeto offline');
  await screenshot(page, 'tecnico-mapa-base-vetorial-offline');
  await context.setOffline(false);
});
