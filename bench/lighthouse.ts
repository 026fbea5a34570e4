// Lighthouse (mobile, its default simulated slow 4G and 4× CPU) on /login and on the technician's home, as a
// first visit meets them: a fresh server on PGlite serving the built app (`npm run build` first), no service worker,
// no cache. The home is measured logged in (a Chromium profile made by Playwright, then emptied of the service
// worker and the caches). Lighthouse is fetched by npx (it is not a dependency); Debian's Chromium runs it.
//   LH_RUNS=3            runs per page; the median of each figure is the result
//   LH_WEB_DIST=web/dist the build to serve
//   LH_RESULTS=bench/results/lighthouse.json where the results go (each run's figures beside the medians)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.LH_RUNS ?? 3);
const LIGHTHOUSE = 'lighthouse@13.5.0';
const CHROMIUM = '/usr/bin/chromium';
const PASSWORD = 'lighthouse-senha-1';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;

interface Report {
  categories: Record<string, { score: number }>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
  >;
}

/** The transfer size of every script the run loaded (the resource summary's 'script' row), in KiB. */
function scriptKiB(report: Report): number {
  const items = report.audits['resource-summary']?.details?.items ?? [];
  const scripts = items.find((item) => item.resourceType === 'script');
  return +((scripts?.transferSize ?? NaN) / 1024).toFixed(1);
}

/** One run's figures, so alternated runs of two builds can be read side by side. */
function run(report: Report) {
  const value = (id: string) => report.audits[id]?.numericValue ?? NaN;
  return {
    performance: Math.round((report.categories.performance?.score ?? 0) * 100),
    fcpS: +(value(METRICS.FCP) / 1000).toFixed(2),
    lcpS: +(value(METRICS.LCP) / 1000).toFixed(2),
    tbtMs: Math.round(value(METRICS.TBT)),
    cls: +value(METRICS.CLS).toFixed(3),
    siS: +(value(METRICS.SI) / 1000).toFixed(2),
    scriptKiB: scriptKiB(report),
    totalKiB: +(value('total-byte-weight') / 1024).toFixed(1),
  };
}

function lighthouse(url: string, profile: string | null): Report {
  const out = path.join(os.tmpdir(), `novus-lh-${process.pid}.json`);
  const flags = ['--headless=new', '--no-sandbox', ...(profile ? [`--user-data-dir=${profile}`] : [])];
  execFileSync(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--quiet',
      `--chrome-flags=${flags.join(' ')}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      '--output=json',
      `--output-path=${out}`,
      ...(profile ? ['--disable-storage-reset'] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as Report;
  fs.rmSync(out, { force: true });
  return report;
}

/** A Chromium profile logged in as the administrator, without the service worker or anything cached. */
async function loggedInProfile(base: string, login: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-lh-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox'],
  });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${base}/`);
  await page.waitForLoadState('networkidle');
  // in the page (a string: this file is typed for Node, not the DOM)
  await page.evaluate(`(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    for (const key of await caches.keys()) await caches.delete(key);
  })()`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await context.close();
  return profile;
}

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `server/src/main.ts` as `npm start` runs it, until /api/health answers. */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (let tries = 0; ; tries++) {
    const healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { url, stop: () => child.kill('SIGTERM') };
    if (tries > 120 || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function summary(page: string, reports: Report[]) {
  const score = (id: string) => median(reports.map((r) => Math.round((r.categories[id]?.score ?? 0) * 100)));
  const metric = (id: string) => median(reports.map((r) => r.audits[id]?.numericValue ?? NaN));
  return {
    page,
    runs: reports.length,
    performance: score('performance'),
    performanceRuns: reports.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpS: +(metric(METRICS.FCP) / 1000).toFixed(2),
    lcpS: +(metric(METRICS.LCP) / 1000).toFixed(2),
    tbtMs: Math.round(metric(METRICS.TBT)),
    cls: +metric(METRICS.CLS).toFixed(3),
    siS: +(metric(METRICS.SI) / 1000).toFixed(2),
    scriptKiB: median(reports.map(scriptKiB)),
    totalKiB: +(metric('total-byte-weight') / 1024).toFixed(1),
    each: reports.map(run),
  };
}

const dist = path.resolve(ROOT, process.env.LH_WEB_DIST ?? 'web/dist');
if (!fs.existsSync(path.join(dist, 'index.html')))
  throw new Error(`no build at ${dist}: run npm run build first`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-lh-data-'));
const server = await startServer({
  DATABASE_URL: '',
  DATA_DIR: dataDir,
  WEB_DIST: dist,
  ADMIN_LOGIN: 'admin',
  ADMIN_PASSWORD: PASSWORD,
});
try {
  const login: Report[] = [];
  const home: Report[] = [];
  for (let run = 0; run < RUNS; run++) {
    login.push(lighthouse(`${server.url}/login`, null));
    const profile = await loggedInProfile(server.url, 'admin');
    home.push(lighthouse(`${server.url}/`, profile));
    fs.rmSync(profile, { recursive: true, force: true });
  }
  const results = {
    lighthouse: LIGHTHOUSE,
    at: new Date().toISOString(),
    pages: [summary('/login', login), summary('/', home)],
  };
  for (const page of results.pages) console.log(JSON.stringify(page));
  const out = path.resolve(ROOT, process.env.LH_RESULTS ?? 'bench/results/lighthouse.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
} finally {
  server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
