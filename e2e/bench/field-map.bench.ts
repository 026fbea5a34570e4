// The technician's field map with 10,000 poles of the project on the device (a city project preloads thousands),
// in headless Chromium at 390x844: time from navigation to the first points (or clusters) on screen, and the
// requestAnimationFrame intervals while the map is dragged and zoomed out and in. The probe looks at pixels and
// class names, not at FieldMap's internals, so the same bench measures any way of drawing the points.
// Numbers go to stdout and bench/results/field-map.json, a screenshot of the zoomed-out map to
// bench/results/field-map-10k.png; compare numbers within one run.
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { acceptDialogs, TechnicianHome } from '../support/collect-pages';
import { GPS, setUpWorld, TECNICO_PASSWORD } from '../support/collect-setup';
import { LoginPage } from '../support/login-page';
import { PHONE } from '../support/screens';
import { drag, frameStats, installProbe, percentile, startFrames, stopFrames, zoom } from './map-input';

test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  geolocation: { latitude: GPS.latitude, longitude: GPS.longitude, accuracy: GPS.accuracy },
  permissions: ['geolocation'],
});

const POINTS = 10_000;
const ROUNDS = 3;
/** Zona Centro of the sample KML. */
const ZONE = { south: -25.44, north: -25.43, west: -49.28, east: -49.27 };

/** Writes the poles straight into the app's IndexedDB (the database the app opened at sign-in). */
async function seedPostes(page: Page, projetoId: string): Promise<void> {
  await page.evaluate(
    async ({ projetoId, count, zone }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('Novus');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const transaction = db.transaction('poste', 'readwrite');
      const store = transaction.objectStore('poste');
      let state = 42;
      const random = () => {
        state = (state * 1103515245 + 12345) & 0x7fffffff;
        return state / 0x7fffffff;
      };
      const now = Date.now();
      for (let i = 0; i < count; i += 1) {
        store.put({
          id: `bench-poste-${String(i).padStart(5, '0')}`,
          projeto: projetoId,
          coordenadas: {
            lat: zone.south + random() * (zone.north - zone.south),
            lng: zone.west + random() * (zone.east - zone.west),
          },
          dados: {},
          fotos: [],
          dataHora: now,
          imagensCompactadas: true,
          sincronizadoEm: now,
        });
      }
      await new Promise<void>((resolve, reject) => {
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      });
      db.close();
    },
    { projetoId, count: POINTS, zone: ZONE },
  );
}

test('field map with 10,000 poles: first draw, pan and zoom frames', async ({ page }) => {
  const world = await setUpWorld();
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await home.sync();
  await home.expectSynced();
  await seedPostes(page, world.projetoId);
  await page.addInitScript(installProbe);
  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });

  const firstDraws: number[] = [];
  const mountToDraws: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await page.goto(`/projeto/${world.projetoId}/addPostes`);
    await page.waitForFunction(() => window.mapProbe?.pointsShown !== undefined, null, { timeout: 120_000 });
    const probe = await page.evaluate(() => window.mapProbe);
    firstDraws.push(probe?.pointsShown ?? NaN);
    mountToDraws.push((probe?.pointsShown ?? NaN) - (probe?.mapShown ?? NaN));
  }
  // Let the first GPS centring and any late work settle before the frames are counted.
  await expect(page.locator('.mapa-posicao')).toHaveCount(1);
  await page.waitForTimeout(1000);

  await startFrames(page);
  await drag(page, -150, 100);
  await drag(page, 200, -50);
  await drag(page, -100, -150);
  await drag(page, 120, 120);
  const pan = await stopFrames(page);

  await startFrames(page);
  for (let step = 0; step < 3; step += 1) await zoom(page, 'out');
  await drag(page, -150, 100);
  await drag(page, 150, -100);
  for (let step = 0; step < 3; step += 1) await zoom(page, 'in');
  const zooms = await stopFrames(page);

  // Zoom 16: most of the zone in view, where clusters stand for the points.
  for (let step = 0; step < 3; step += 1) await zoom(page, 'out');
  await page.screenshot({ path: path.join(out, 'field-map-10k.png') });

  const result = {
    date: new Date().toISOString(),
    points: POINTS,
    viewport: PHONE,
    navigationToFirstPointsMs: {
      median: Math.round(percentile(firstDraws, 50)),
      runs: firstDraws.map(Math.round),
    },
    mapMountToFirstPointsMs: {
      median: Math.round(percentile(mountToDraws, 50)),
      runs: mountToDraws.map(Math.round),
    },
    panFrames: frameStats(pan),
    zoomFrames: frameStats(zooms),
  };
  console.log(JSON.stringify(result, null, 2));
  fs.writeFileSync(path.join(out, 'field-map.json'), `${JSON.stringify(result, null, 2)}\n`);
  await world.admin.dispose();
});
