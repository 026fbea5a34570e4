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

/** Saves measured (COLLECT_ROUNDS; 20 gives a p95 worth the name). */
const ROUNDS = Number(process.env.COLLECT_ROUNDS ?? 20);
/** The build the server serves (E2E_WEB_DIST, as playwright.config.ts), so its JS is the one counted. */
const dist = process.env.E2E_WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist');

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

/** The p-th percentile, nearest rank (p95 of 20 saves: the 19th). */
/**
 * In the page: from the click on 'Gravar' (the event's own timestamp) to the confirmation's text in the document
 * (`dom`) and to the start of the next frame, the one that paints it (`frame`). Playwright's expect polls at 0, 20, 50,
 * 100 ms… after its first look, so what it times is rounded up to its next poll; this is what the phone shows.
 */
function watchSaves(text: string): void {
  const saves: { dom: number; frame: number }[] = [];
  let clicked: number | null = null;
  Object.assign(window, { __saves: saves });
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (button?.textContent?.trim() === 'Gravar') clicked = event.timeStamp;
    },
    true,
  );
  // One selector per batch of changes, not the text of every node added (a form drawn again adds hundreds).
  new MutationObserver(() => {
    if (clicked === null) return;
    // The notice: a Snackbar mounted at the save (until 2026-11-28), or the one always on the page, shown.
    const notice = document.querySelector('.MuiSnackbar-root, .MuiAlert-root:not([hidden])');
    if (!notice?.textContent?.includes(text)) return;
    const start = clicked;
    clicked = null;
    const dom = performance.now() - start;
    requestAnimationFrame(() => saves.push({ dom, frame: performance.now() - start }));
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
}

/** With COLLECT_TRACE=file.json, the last save is traced (Chrome's timeline, IndexedDB, V8) into that file. */
async function traced<T>(page: Page, file: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!file) return run();
  const cdp = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.frame',
        'blink.user_timing',
        'toplevel',
        'v8.execute',
        'IndexedDB',
        'Blob',
        'storage',
        'disabled-by-default-v8.cpu_profiler',
      ],
    },
  });
  try {
    return await run();
  } finally {
    await cdp.send('Tracing.end');
    await done;
    fs.writeFileSync(file, JSON.stringify({ traceEvents: events }));
    await cdp.detach();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

interface InPage {
  dom: number;
  frame: number;
}

function summary(values: number[]) {
  return {
    median: Math.round(percentile(values, 50)),
    p95: Math.round(percentile(values, 95)),
    max: Math.round(Math.max(...values)),
    runs: values.map(Math.round),
  };
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

  await page.addInitScript(watchSaves, 'Unidade gravada no aparelho.');
  const wizard = new WizardPage(page);
  const photos = [await cameraJpeg(page, 1), await cameraJpeg(page, 2), await cameraJpeg(page, 3)];
  /** As Playwright sees it: the click, then a wait on the page's own timing (until 2026-11-28, on expect's polls). */
  const saves: number[] = [];
  const onScreen: number[] = [];
  const inDocument: number[] = [];
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
    await traced(page, round === ROUNDS - 1 ? process.env.COLLECT_TRACE : undefined, async () => {
      const started = performance.now();
      await wizard.gravar.click();
      // Waiting on the page's own timing: expect's polls would read the page's accessibility tree on its main
      // thread during the very save they time (up to 57 ms of a traced save).
      await page.waitForFunction(() => (window as unknown as { __saves: InPage[] }).__saves[0], null, {
        polling: 'raf',
        timeout: 10_000,
      });
      saves.push(performance.now() - started);
    });
    await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
    const inPage = await (
      await page.waitForFunction(() => (window as unknown as { __saves: InPage[] }).__saves[0], null, {
        timeout: 5_000,
      })
    ).jsonValue();
    onScreen.push(inPage.frame);
    inDocument.push(inPage.dom);
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
    saveUnitWith3PhotosMs: summary(onScreen),
    saveUnitWith3PhotosInDocumentMs: summary(inDocument),
    saveUnitWith3PhotosPlaywrightMs: summary(saves),
    compressPer12MpPhotoMs: Math.round(compressMs / photoCount),
    compressedPhotos: photoCount,
    criticalPathJs: { files: critical.files, bytes: critical.bytes, gzip: critical.gzip },
  };
  console.log(JSON.stringify(result, null, 2));
  const out = process.env.BENCH_RESULTS_DIR ?? path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'browser.json'), `${JSON.stringify(result, null, 2)}\n`);
  await world.admin.dispose();
});
