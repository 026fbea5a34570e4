// 'Download do Mapa' from a project's basemap package (issue 23), as a technician meets it at 390x844: the zone of
// the real USGS raster package (realworld/pmtiles, WebP 512 px, zoom 8–15, around Mt Whitney) and a vector package
// of the same area and zooms, each uploaded to a project whose zone lies inside the archive. A project's zones must
// lie in Brazil, so the raster's tiles are re-addressed, byte for byte, to the same tile ranges over Curitiba (the
// same tiles, the same bytes, a Brazilian address), and the zone is drawn inside them. For each: the tiles and
// bytes the device stored, the seconds of the download over a link shaped by Chromium's network emulation to
// 10 Mbit/s down and up (20 ms latency), and, offline after a reload, the time from opening the pole wizard's map
// to the first package tile drawn in view. No real vector data of that area exists offline here: the vector package
// is made by the test's MVT encoder as a town would look (a street every 100 m, named, eight buildings a block from
// zoom 14, as Protomaps' basemap starts them), which is denser than the real mountain. Numbers go to stdout and
// bench/results/mapa-base.json, screenshots of the offline maps beside it.
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { type PmtilesTile, tileRange, writePmtiles } from '../../server/test/support/pmtiles';
import { createCliente, createUser, unique } from '../support/api';
import { acceptDialogs, openProjetoMenu, signInSynced } from '../support/collect-pages';
import { adminApi, TECNICO_PASSWORD } from '../support/collect-setup';
import { type CamadaMvt, type Elemento, encodeMvt, type Lugar, retangulo } from '../support/mvt';
import { PHONE } from '../support/screens';

const RASTER = path.resolve(
  import.meta.dirname,
  '../../../shared/realworld/pmtiles/usgs-mt-whitney-webp-z8-15.pmtiles',
);
/** The raster archive's bounds (its README): [west, south, east, north]. */
const WHITNEY: [number, number, number, number] = [-118.32, 36.561, -118.261, 36.593];
const ZOOMS = [8, 9, 10, 11, 12, 13, 14, 15];
/** Where the tiles are moved to: the same size in degrees, around Curitiba's centre. */
const LIMITES: [number, number, number, number] = [-49.305, -25.451, -49.246, -25.419];
/** The technician's zone: inside the tiles of the finest zoom once moved (the outer ones may fall short). */
const ZONA: [number, number, number, number] = [-49.295, -25.445, -49.256, -25.425];
const CENTRO = { latitude: (ZONA[1] + ZONA[3]) / 2, longitude: (ZONA[0] + ZONA[2]) / 2, accuracy: 6 };
/** 10 Mbit/s in bytes per second. */
const LINK = 10_000_000 / 8;
const LATENCY_MS = 20;

test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  geolocation: CENTRO,
  permissions: ['geolocation'],
});

declare global {
  interface Window {
    /** performance.now() of the first frame with a package tile drawn in the map's view */
    tileProbe?: { tileShown?: number };
  }
}

/** Each frame, until it finds one, looks for a loaded package tile (an image, or a drawn vector canvas) in view. */
function installProbe(): void {
  const probe: { tileShown?: number } = {};
  window.tileProbe = probe;
  const inView = (element: Element, view: DOMRect) => {
    const rect = element.getBoundingClientRect();
    return (
      rect.right > view.left && rect.left < view.right && rect.bottom > view.top && rect.top < view.bottom
    );
  };
  const drawn = (canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0) return false;
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < pixels.length; i += 64) if (pixels[i] !== 0) return true;
    return false;
  };
  const look = () => {
    const map = document.querySelector('.leaflet-container');
    if (map) {
      const view = map.getBoundingClientRect();
      const images = Array.from(
        document.querySelectorAll<HTMLImageElement>('img.leaflet-tile-loaded'),
      ).filter((img) => img.src.includes('/mapa-base/') && img.naturalWidth > 0 && inView(img, view));
      // a vector package's tiles, and a raster's past its last zoom (cut from their ancestor), are canvases
      const canvases = Array.from(
        document.querySelectorAll<HTMLCanvasElement>('.mapa-vetorial canvas, .mapa-base canvas'),
      ).filter((canvas) => inView(canvas, view) && drawn(canvas));
      if (images.length > 0 || canvases.length > 0) {
        probe.tileShown = performance.now();
        return;
      }
    }
    if (performance.now() < 120_000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

function zoneKml(): string {
  const [w, s, e, n] = ZONA;
  const ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
    [w, s],
  ]
    .map(([lng, lat]) => `${lng},${lat},0`)
    .join(' ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Folder><name>Zonas</name>
<Placemark><name>Zona Whitney</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Folder></Document></kml>`;
}

interface World {
  admin: APIRequestContext;
  projetoId: string;
  projetoNome: string;
  tecnico: string;
}

async function setUp(pacote: Uint8Array, nome: string): Promise<World> {
  const admin = await adminApi();
  const cliente = await createCliente(admin, unique('Cliente Mapa'));
  const projetoNome = unique('Projeto Mapa');
  const created = await admin.post('/api/projeto', {
    form: {
      nome: projetoNome,
      cliente,
      fluxos: 'hc,poste',
      kml: zoneKml(),
      fuso: '22',
      disponivelInterpres: 'false',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { _id: projetoId } = (await created.json()) as { _id: string };
  const detail = (await (await admin.get(`/api/projeto/${projetoId}`)).json()) as {
    zonas: { _id: string }[];
  };
  const tecnico = unique('mapa').replace(' ', '-');
  await createUser(admin, {
    login: tecnico,
    password: TECNICO_PASSWORD,
    firstName: 'Paula',
    lastName: 'Campos',
    roles: ['tecnico'],
    cliente,
    ...{ zonas: detail.zonas.map((zona) => zona._id) },
  });
  const uploaded = await admin.put(`/api/projeto/${projetoId}/mapa-base?nome=${encodeURIComponent(nome)}`, {
    data: Buffer.from(pacote),
    headers: { 'Content-Type': 'application/vnd.pmtiles' },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  return { admin, projetoId, projetoNome, tecnico };
}

// ——— the raster's own tiles, re-addressed over Curitiba ———

class FileBytes implements Source {
  constructor(private readonly file: string) {}
  getKey(): string {
    return this.file;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const handle = await fs.promises.open(this.file, 'r');
    try {
      const data = Buffer.alloc(length);
      const { bytesRead } = await handle.read(data, 0, length, offset);
      return { data: data.buffer.slice(data.byteOffset, data.byteOffset + bytesRead) };
    } finally {
      await handle.close();
    }
  }
}

async function rasterOverCuritiba(): Promise<Uint8Array> {
  const archive = new PMTiles(new FileBytes(RASTER));
  const tiles: PmtilesTile[] = [];
  for (const z of ZOOMS) {
    const from = tileRange(WHITNEY, z);
    const to = tileRange(LIMITES, z);
    for (let x = from.minX; x <= from.maxX; x += 1) {
      for (let y = from.minY; y <= from.maxY; y += 1) {
        const tile = await archive.getZxy(z, x, y);
        if (!tile) continue;
        tiles.push({
          z,
          x: x - from.minX + to.minX,
          y: y - from.minY + to.minY,
          data: new Uint8Array(tile.data),
        });
      }
    }
  }
  const metadata = (await archive.getMetadata()) as Record<string, unknown>;
  return writePmtiles({ tileType: 'webp', tiles, minZoom: 8, maxZoom: 15, bounds: LIMITES, metadata });
}

// ——— the vector package of the same area: a town's streets and buildings ———

function vectorPackage(): Uint8Array {
  const [w, s, e, n] = LIMITES;
  const stepLat = 100 / 111_320;
  const stepLng = 100 / (111_320 * Math.cos((CENTRO.latitude * Math.PI) / 180));
  const ruas: { elemento: Elemento; box: [number, number, number, number] }[] = [];
  const predios: { elemento: Elemento; box: [number, number, number, number] }[] = [];
  let rua = 0;
  for (let lat = s; lat <= n; lat += stepLat) {
    rua += 1;
    const linha: Lugar[] = [
      [w, lat],
      [e, lat],
    ];
    ruas.push({
      elemento: {
        geometria: { tipo: 'linha', linha },
        props: { kind: rua % 5 === 0 ? 'major_road' : 'minor_road', name: `Rua ${rua}`, min_zoom: 12 },
      },
      box: [w, lat, e, lat],
    });
  }
  for (let lng = w; lng <= e; lng += stepLng) {
    rua += 1;
    ruas.push({
      elemento: {
        geometria: {
          tipo: 'linha',
          linha: [
            [lng, s],
            [lng, n],
          ],
        },
        props: { kind: rua % 5 === 0 ? 'major_road' : 'minor_road', name: `Avenida ${rua}`, min_zoom: 12 },
      },
      box: [lng, s, lng, n],
    });
    for (let lat = s; lat + stepLat <= n; lat += stepLat) {
      for (let k = 0; k < 8; k += 1) {
        const bx = lng + stepLng * (0.1 + (k % 4) * 0.2);
        const by = lat + stepLat * (k < 4 ? 0.15 : 0.6);
        const box: [number, number, number, number] = [bx, by, bx + stepLng * 0.15, by + stepLat * 0.25];
        predios.push({
          elemento: { geometria: { tipo: 'poligono', aneis: [retangulo(box)] }, props: { kind: 'building' } },
          box,
        });
      }
    }
  }
  const tiles: { z: number; x: number; y: number; data: Uint8Array }[] = [];
  for (const z of ZOOMS) {
    const { minX, maxX, minY, maxY } = tileRange(LIMITES, z);
    for (let x = minX; x <= maxX; x += 1) {
      for (let y = minY; y <= maxY; y += 1) {
        const tw = (x / 2 ** z) * 360 - 180;
        const te = ((x + 1) / 2 ** z) * 360 - 180;
        const lat = (row: number) =>
          (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / 2 ** z))) * 180) / Math.PI;
        const [tn, ts] = [lat(y), lat(y + 1)];
        const within = ({ box }: { box: [number, number, number, number] }) =>
          box[2] >= tw && box[0] <= te && box[3] >= ts && box[1] <= tn;
        const camadas: CamadaMvt[] = [
          {
            nome: 'earth',
            elementos: [
              {
                geometria: { tipo: 'poligono', aneis: [retangulo([tw, ts, te, tn])] },
                props: { kind: 'earth' },
              },
            ],
          },
          ...(z >= 12
            ? [{ nome: 'roads', elementos: ruas.filter(within).map((item) => item.elemento) }]
            : []),
          ...(z >= 14
            ? [{ nome: 'buildings', elementos: predios.filter(within).map((item) => item.elemento) }]
            : []),
        ];
        tiles.push({ z, x, y, data: encodeMvt(camadas, z, x, y) });
      }
    }
  }
  return writePmtiles({
    tileType: 'mvt',
    tiles,
    tileCompression: 'gzip',
    minZoom: ZOOMS[0],
    maxZoom: ZOOMS.at(-1),
    bounds: LIMITES,
    metadata: {
      name: 'Mt Whitney, ruas sintéticas',
      vector_layers: ['earth', 'roads', 'buildings'].map((id) => ({ id, fields: {} })),
    },
  });
}

// ——— the journey measured ———

async function cachedPackageTiles(page: Page): Promise<{ tiles: number; bytes: number }> {
  return page.evaluate(async () => {
    const cache = await caches.open('novus-tiles');
    let tiles = 0;
    let bytes = 0;
    for (const request of await cache.keys()) {
      if (!request.url.includes('/mapa-base/')) continue;
      const response = await cache.match(request);
      if (!response) continue;
      tiles += 1;
      bytes += (await response.arrayBuffer()).byteLength;
    }
    return { tiles, bytes };
  });
}

async function measure(page: Page, world: World, kind: string) {
  acceptDialogs(page);
  await signInSynced(page, { login: world.tecnico, password: TECNICO_PASSWORD });
  await expect(page.getByRole('heading', { name: 'Olá, Paula Campos' })).toBeVisible();
  await (await openProjetoMenu(page, world.projetoNome)).getByRole('link', { name: 'Poste' }).click();
  const estimate = await page.getByText(/^Serão baixados .* blocos \(cerca de .*\)\.$/).textContent();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // The service worker fetches the tiles from the network (the page sees its answers): what crossed the link is
  // in its resource timings (transferSize: headers and the body as sent, gzip included).
  const [worker] = page.context().serviceWorkers();
  if (!worker) throw new Error('no service worker');
  await worker.evaluate(() => {
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(100_000);
  });
  const started = performance.now();
  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText(/^Mapa baixado/)).toBeVisible({ timeout: 300_000 });
  const downloadS = (performance.now() - started) / 1000;
  // Detached, its emulation ends; one left in place would also override setOffline below.
  await cdp.detach();
  const stored = await cachedPackageTiles(page);
  const network = await worker.evaluate(() => {
    const tiles = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/mapa-base/')) as PerformanceResourceTiming[];
    return { responses: tiles.length, bytes: tiles.reduce((sum, entry) => sum + entry.transferSize, 0) };
  });

  await page.context().setOffline(true);
  await page.addInitScript(installProbe);
  const firstFrames: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    await page.goto(`/projeto/${world.projetoId}/addPostes`);
    await page.waitForFunction(() => window.tileProbe?.tileShown !== undefined, null, { timeout: 120_000 });
    firstFrames.push((await page.evaluate(() => window.tileProbe?.tileShown)) ?? Number.NaN);
  }
  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: path.join(out, `mapa-base-${kind}.png`) });
  await page.context().setOffline(false);
  return {
    estimate,
    tiles: stored.tiles,
    /** as the device's tile cache holds them (decoded) */
    storedMB: Math.round((stored.bytes / 1024 ** 2) * 100) / 100,
    /** as they crossed the link, headers included */
    networkMB: Math.round((network.bytes / 1024 ** 2) * 100) / 100,
    tileResponses: network.responses,
    downloadS: Math.round(downloadS * 100) / 100,
    /** the bytes that crossed ÷ the link's bandwidth: what the tiles alone cost on the shaped link */
    linkFloorS: Math.round((network.bytes / LINK) * 100) / 100,
    offlineReloadToFirstTileMs: {
      median: firstFrames.toSorted((a, b) => a - b)[1],
      runs: firstFrames.map(Math.round),
    },
  };
}

const results: Record<string, unknown> = {};

test('raster package (USGS, WebP, zoom 8–15): download over 10 Mbit/s and the first offline frame', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const pacote = await rasterOverCuritiba();
  const world = await setUp(pacote, path.basename(RASTER));
  results.raster = {
    archiveMB: Math.round((pacote.length / 1024 ** 2) * 100) / 100,
    ...(await measure(page, world, 'raster')),
  };
  await world.admin.dispose();
});

test('vector package of the same area and zooms: the same figures', async ({ page }) => {
  test.setTimeout(600_000);
  const pacote = vectorPackage();
  const world = await setUp(pacote, 'whitney-vetorial.pmtiles');
  results.vector = {
    archiveMB: Math.round((pacote.length / 1024 ** 2) * 100) / 100,
    ...(await measure(page, world, 'vector')),
  };
  await world.admin.dispose();
});

test.afterAll(() => {
  const result = { date: new Date().toISOString(), linkMbitS: 10, latencyMs: LATENCY_MS, ...results };
  console.log(JSON.stringify(result, null, 2));
  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'mapa-base.json'), `${JSON.stringify(result, null, 2)}\n`);
});
