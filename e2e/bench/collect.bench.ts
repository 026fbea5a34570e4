// What a technician waits for, measured in headless Chromium on the built app: saving a unit with three
// 12-megapixel photos on the device, and compressing such photos (quality 0.7, max 1920 px). Also the
// technician's critical-path JS (what the first page loads) in gzip. Numbers go to stdout and
// bench/results/browser.json; compare them within one run, these machines are noisy.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { acceptDialogs, TechnicianHome, WizardPage } from '../support/collect-pages';
import { GPS, setUpWorld, TECNICO_PASSWORD } from '../support/collect-setup';
import { LoginPage } from '../support/login-page';
import { PHONE } from '../support/screens';

test.use({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  geolocation: { latitude: GPS.latitude, longitude: GPS.longitude, accuracy: GPS.accuracy },
  permissions: ['geolocation'],
});

const ROUNDS = 3;
const dist = path.resolve(import.meta.dirname, '../../web/dist');

/** A 4000x3000 JPEG with sensor-like noise, so its size is a camera's (a few MB), not a flat gradient's. */
async function cameraJpeg(page: Page, seed: number): Promise<Buffer> {
  const base64 = await page.evaluate(async (seed) => {
    const [width, height] = [4000, 3000];
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    const image = context.createImageData(width, height);
    let state = seed;
    for (let i = 0; i < image.data.length; i += 4) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const noise = state % 64;
      const x = (i / 4) % width;
      image.data[i] = (x / width) * 160 + noise;
      image.data[i + 1] = 120 + noise;
      image.data[i + 2] = 200 - (x / width) * 120 + noise;
      image.data[i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
    if (!blob) throw new Error('toBlob gave nothing');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, seed);
  return Buffer.from(base64, 'base64');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Scripts and module preloads of index.html: what a phone must fetch before the first screen. */
function criticalPathGzip(): { files: string[]; bytes: number; gzip: number } {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const content = fs.readFileSync(path.join(dist, file));
    bytes += content.length;
    gzip += zlib.gzipSync(content, { level: 9 }).length;
  }
  return { files, bytes, gzip };
}

test('save with 3 photos, compression per 12 MP photo, critical-path JS', async ({ page }) => {
  const world = await setUpWorld();
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await home.sync();
  await home.expectSynced();

  const wizard = new WizardPage(page);
  const photos = [await cameraJpeg(page, 1), await cameraJpeg(page, 2), await cameraJpeg(page, 3)];
  const saves: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await page.goto(`/projeto/${world.projetoId}/addUnidades`);
    await page.getByRole('button', { name: 'SDU (casa)' }).click();
    await wizard.tapMap();
    await wizard.gravarCoordenadas.click();
    await page.getByRole('textbox', { name: 'Número', exact: true }).fill(String(100 + round));
    for (const [index, buffer] of photos.entries()) {
      await page.getByLabel(`Foto ${index + 1}`, { exact: true }).setInputFiles({
        name: `camera-${index + 1}.jpg`,
        mimeType: 'image/jpeg',
        buffer,
      });
    }
    await expect(page.getByRole('img', { name: 'Miniatura da Foto 3' })).toBeVisible();
    const started = performance.now();
    await wizard.gravar.click();
    await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
    saves.push(performance.now() - started);
  }

  await page.goto('/');
  const started = performance.now();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 300_000 });
  const compressMs = performance.now() - started;
  const photoCount = ROUNDS * photos.length;

  const critical = criticalPathGzip();
  const result = {
    date: new Date().toISOString(),
    photoBytes: photos.map((photo) => photo.length),
    saveUnitWith3PhotosMs: { median: Math.round(median(saves)), runs: saves.map(Math.round) },
    compressPer12MpPhotoMs: Math.round(compressMs / photoCount),
    compressedPhotos: photoCount,
    criticalPathJs: { files: critical.files, bytes: critical.bytes, gzip: critical.gzip },
  };
  console.log(JSON.stringify(result, null, 2));
  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'browser.json'), `${JSON.stringify(result, null, 2)}\n`);
  await world.admin.dispose();
});
