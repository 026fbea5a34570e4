// The phone's map with a zone's preloaded points (issue 41), at a small size: the back office loads 1,500 BDGD
// assets and 1,500 Uso Mútuo / IP points over Zona Centro; the technician syncs, goes offline, and each flow's map
// step draws its points from the device (on one canvas past a few hundred), gathers them into clusters that count
// every one when zoomed out, and follows a pan. e2e/bench/field-map-50k.bench.ts
// measures the same path with 50,000 points and a slowed CPU.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, openProjetoMenu, startOfflineDay, WizardPage } from '../support/collect-pages';
import {
  type CollectWorld,
  GPS,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);

/** Per flow: more than the map draws as SVG shapes, so they take the canvas path the 50,000 do. */
const PER_FLOW = 1500;
/** Zona Centro of the sample KML, a little inside its edges. */
const ZONE = { south: -25.4399, north: -25.4301, west: -49.2799, east: -49.2701 };

function scatter(count: number, seed: number): [number, number][] {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return Array.from({ length: count }, () => [
    ZONE.south + random() * (ZONE.north - ZONE.south),
    ZONE.west + random() * (ZONE.east - ZONE.west),
  ]);
}

const BDGD = scatter(PER_FLOW, 7);
const IP = scatter(PER_FLOW, 11);

/** Web Mercator pixels at zoom 19, where the map step opens centred on the GPS fix. */
function pixelsAt19([lat, lng]: [number, number]): [number, number] {
  const world = 256 * 2 ** 19;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [world * (0.5 + lng / 360), world * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI))];
}

/**
 * A point near the middle of the map as it opens (away from its controls) with no other within 40 px: where it is
 * on the map, from the centre, and its index in the list.
 */
function lonePoint(points: [number, number][]): { index: number; dx: number; dy: number } {
  const [cx, cy] = pixelsAt19([GPS.latitude, GPS.longitude]);
  const pixels = points.map(pixelsAt19);
  const candidates = pixels
    .map(([x, y], index) => ({ index, dx: x - cx, dy: y - cy }))
    .filter(({ dx, dy }) => Math.abs(dx) < 100 && Math.abs(dy) < 120)
    .filter(({ index }) =>
      pixels.every(
        ([x, y], other) =>
          other === index || Math.hypot(x - (pixels[index]?.[0] ?? 0), y - (pixels[index]?.[1] ?? 0)) > 40,
      ),
    )
    .sort((a, b) => Math.hypot(a.dx, a.dy) - Math.hypot(b.dx, b.dy));
  const [found] = candidates;
  if (!found) throw new Error('no lone point near the fix: change the seed');
  return found;
}

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld({
    fluxos: 'bdgd,ip',
    pontos: {
      pontosBDGD: BDGD.map((coordenadas, i) => ({
        coordenadas,
        idConcessionaria: `BD-${i}`,
        ativo: 'Poste',
        sequencial: i + 1,
      })),
      pontosIP: IP.map((coordenadas, i) => ({
        coordenadas,
        idConcessionaria: `IP-${i}`,
        idCircuito: 'C-1',
        quantidadeCompartilhamento: 0,
      })),
    },
  });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

/** How many pixels of the points' canvas are drawn inside the visible map. */
function drawnPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    const map = document.querySelector('.leaflet-container');
    if (!map) return 0;
    const view = map.getBoundingClientRect();
    let drawn = 0;
    for (const canvas of Array.from(
      document.querySelectorAll<HTMLCanvasElement>('.leaflet-overlay-pane canvas'),
    )) {
      const rect = canvas.getBoundingClientRect();
      const context = canvas.getContext('2d');
      if (!context || rect.width === 0) continue;
      const scale = canvas.width / rect.width;
      const x = Math.max(0, (view.left - rect.left) * scale);
      const y = Math.max(0, (view.top - rect.top) * scale);
      const width = Math.min(canvas.width - x, view.width * scale);
      const height = Math.min(canvas.height - y, view.height * scale);
      if (width < 1 || height < 1) continue;
      const pixels = context.getImageData(x, y, width, height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) drawn += 1;
    }
    return drawn;
  });
}

/** The points the cluster icons on the map count, together. */
async function clusteredCount(clusters: Locator): Promise<number> {
  const counts = await clusters.allTextContents();
  return counts.reduce((sum, text) => sum + Number(text), 0);
}

/** From the technician's zoom (19) to 14. */
const ZOOM_OUT_STEPS = 5;

async function dragMap(page: Page, dx: number, dy: number): Promise<void> {
  const box = await page.locator('.leaflet-container').boundingBox();
  if (!box) throw new Error('map not visible');
  const [x, y] = [box.x + box.width / 2 - dx / 2, box.y + box.height / 2 - dy / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1) await page.mouse.move(x + (dx * step) / 10, y + (dy * step) / 10);
  await page.mouse.up();
}

test('the map step draws a zone of preloaded points from the device, clustered, and pans over them', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const wizard = new WizardPage(page);
  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  const menu = await openProjetoMenu(page, world.projetoNome);

  for (const flow of [
    { label: 'BDGD', shot: 'tecnico-mapa-pontos-bdgd', points: BDGD, id: 'BD' },
    { label: 'Uso Mútuo / IP', shot: 'tecnico-mapa-pontos-ip', points: IP, id: 'IP' },
  ]) {
    await menu.getByRole('link', { name: flow.label, exact: true }).click();
    await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
    await expect(page.locator('.mapa-posicao')).toHaveCount(1);

    // At the technician's zoom (19) the points around the GPS fix are drawn, one by one, on the canvas.
    await expect
      .poll(() => drawnPixels(page), { message: 'points drawn around the fix' })
      .toBeGreaterThan(500);
    await expectAccessible(page, `${flow.label} mapa com pontos`);
    await screenshot(page, `${flow.shot}-19`);

    // A tap on one of them, where its coordinates put it, opens that point (and chooses no new one).
    const lone = lonePoint(flow.points);
    const box = await wizard.map.boundingBox();
    if (!box) throw new Error('map not visible');
    await page.mouse.click(box.x + box.width / 2 + lone.dx, box.y + box.height / 2 + lone.dy);
    await expect(wizard.step('Passo 2 de 2')).toBeVisible();
    await expect(page.getByLabel('ID da concessionária')).toHaveValue(`${flow.id}-${lone.index}`);
    await wizard.voltar.click();
    await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
    await expect(page.locator('.mapa-posicao')).toHaveCount(1);

    // Zoomed out to 14 the whole zone (≈ 1 km, a 390-px map spans ≈ 3.7 km there) is in clusters, which count every
    // preloaded point of the flow. At 16 the map spans ≈ 0.9 km: a point at the zone's edge may lie outside the view.
    const clusters = page.locator('.mapa-cluster');
    for (let step = 0; step < ZOOM_OUT_STEPS; step += 1) {
      await page.locator('.leaflet-control-zoom-out').click();
      await page.waitForTimeout(400);
    }
    await expect
      .poll(() => clusteredCount(clusters), { message: 'points counted by the clusters' })
      .toBe(PER_FLOW);
    await expectAccessible(page, `${flow.label} mapa com grupos`);
    await screenshot(page, flow.shot);

    // A pan at 16 moves the clusters with the finger (and a little further: Leaflet's inertia).
    for (let step = 0; step < ZOOM_OUT_STEPS - 3; step += 1) {
      await page.locator('.leaflet-control-zoom-in').click();
      await page.waitForTimeout(400);
    }
    const first = clusters.first();
    const before = await first.boundingBox();
    await dragMap(page, -60, 40);
    await expect
      .poll(async () => {
        const after = await first.boundingBox();
        if (!before || !after) return false;
        const [dx, dy] = [after.x - before.x, after.y - before.y];
        return dx <= -55 && dx >= -90 && dy >= 35 && dy <= 60;
      })
      .toBe(true);

    // Back at the technician's zoom the clusters give way to the single points, drawn around the new centre.
    for (let step = 0; step < 3; step += 1) {
      await page.locator('.leaflet-control-zoom-in').click();
      await page.waitForTimeout(400);
    }
    await expect(clusters).toHaveCount(0);
    await expect
      .poll(() => drawnPixels(page), { message: 'single points drawn after the pan' })
      .toBeGreaterThan(500);

    await wizard.voltar.click();
    await expect(menu).toBeVisible();
  }
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
});
