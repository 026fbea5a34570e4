// The supervisor map of a whole city (issue 41): a project of 1,000,000 points on PostgreSQL, in headless Chromium
// at 1280x800. The server is a process of the bench's own (e2e/support/own-server.ts) on a database seeded with
// set-based SQL (bench/mapa-seed.ts: ≈ 400 neighbourhoods of a 33 × 33 km city, five layers). It measures, in the
// page: choosing the project → the first frame with clusters, cold (a record changed just before, so the server
// computes the project's summary and the view's tiles again) and warm (the same version); rAF intervals while the
// map is dragged and zoomed; ticking 'BDGD' → redraw; the grid requests a pan or zoom makes and how long each took;
// the memory of the page's renderer process (its RSS, workers included) and its JS heap. Then the same choice with
// every point sent to the browser (MAPA_PONTOS_NO_NAVEGADOR past the project's size, the path of ≤ 150,000).
//   DATABASE_URL                 the PostgreSQL cluster (required; the bench makes and drops a database there)
//   BENCH_MAPA_DATABASE_URL      an already seeded database instead (bench/mapa-seed.ts), kept afterwards
//   BENCH_MAPA_POINTS=1000000    points to seed
//   BENCH_MAPA_NAVEGADOR=0       skips the every-point-to-the-browser run
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { OwnServer, ScratchDatabases } from '../support/own-server';
import { DESKTOP } from '../support/screens';
import { startFrames, stopFrames } from './map-input';
import { armProbe, drag, frameStats, probeMs, stats, zoom } from './supervisor-probe';

test.use({ viewport: DESKTOP });

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const POINTS = Number(process.env.BENCH_MAPA_POINTS ?? 1_000_000);
const PASSWORD = 'bench-mapa-senha-1';
const RUNS = 4;
const MB = 1024 * 1024;

interface Fixture {
  projeto: string;
  projetoNome: string;
  supervisor: string;
}

async function psql(url: string, sql: string): Promise<string> {
  const { stdout } = await run('psql', ['--no-psqlrc', '-tA', '-v', 'ON_ERROR_STOP=1', '-c', sql, url]);
  return stdout.trim();
}

/**
 * The page's renderer process (this browser's largest renderer: it holds the map and its worker): its RSS, shared
 * library pages included, and its own memory as Chrome's task manager counts a footprint (private dirty + swap), MB.
 */
async function rendererMb(page: Page): Promise<{ rss: number; footprint: number }> {
  const browser = page.context().browser();
  if (browser === null) return { rss: 0, footprint: 0 };
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number }[];
  };
  await cdp.detach();
  let largest = { rss: 0, footprint: 0 };
  for (const process of processInfo.filter((info) => info.type === 'renderer')) {
    const rollup = fs.readFileSync(`/proc/${process.id}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0);
    const rss = Math.round(kb('Rss') / 1024);
    if (rss > largest.rss) largest = { rss, footprint: Math.round((kb('Private_Dirty') + kb('Swap')) / 1024) };
  }
  return largest;
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return Math.round((metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0) / MB);
}

async function signIn(page: Page, origin: string, login: string): Promise<void> {
  await page.goto(`${origin}/backoffice`);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${origin}/backoffice`);
}

/** Fresh page, project chosen: ms from the click on its option to the first frame with clusters. */
async function chooseProject(page: Page, origin: string, nome: string, timeout = 60_000): Promise<number> {
  await page.goto(`${origin}/backoffice/supervisor`);
  await page.getByRole('combobox', { name: /^Projeto/ }).click();
  await armProbe(page, '[role="option"]', true);
  await page.getByRole('option', { name: nome, exact: true }).click();
  await page.waitForFunction(() => window.benchProbe?.changedAt !== undefined, null, { timeout });
  return probeMs(page);
}

test('supervisor map with 1,000,000 points on PostgreSQL: the server’s clusters, and every point in the browser', async ({
  page,
}) => {
  test.skip(!process.env.DATABASE_URL && !process.env.BENCH_MAPA_DATABASE_URL, 'needs PostgreSQL (DATABASE_URL)');
  const scratch = new ScratchDatabases(process.env.DATABASE_URL ?? process.env.BENCH_MAPA_DATABASE_URL ?? '');
  let url = process.env.BENCH_MAPA_DATABASE_URL;
  let fixture: Fixture;
  let seedS: number | null = null;
  if (url === undefined) {
    url = scratch.urlOf(await scratch.create('novus_bench_mapa'));
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/mapa-seed.ts'), url, String(POINTS)],
      { cwd: ROOT, maxBuffer: 1 << 20 },
    );
    const seeded = JSON.parse(stdout) as Fixture & { seedS: number };
    fixture = seeded;
    seedS = Math.round(seeded.seedS);
  } else {
    const [projeto = '', projetoNome = ''] = (
      await psql(url, "SELECT id, nome FROM projetos WHERE nome LIKE 'Cidade Inteira %' ORDER BY created_at DESC LIMIT 1")
    ).split('|');
    const supervisor = await psql(url, "SELECT login FROM usuarios WHERE login LIKE 'supervisor-mapa-%' LIMIT 1");
    fixture = { projeto, projetoNome, supervisor };
  }
  const databaseUrl = url;
  const points = Number(await psql(databaseUrl, `SELECT count(*) FROM registros WHERE projeto = '${fixture.projeto}'`));
  console.log(`${points} points in '${fixture.projetoNome}'${seedS === null ? '' : ` (seeded in ${seedS} s)`}`);
  const touch = () =>
    psql(
      databaseUrl,
      `UPDATE registros SET dados = dados WHERE id = (SELECT id FROM registros WHERE projeto = '${fixture.projeto}' LIMIT 1)`,
    );

  const server = await OwnServer.create();
  const grade: { url: string; ms: number }[] = [];
  page.on('requestfinished', (request) => {
    if (!request.url().includes('/mapa/grade')) return;
    const timing = request.timing();
    grade.push({ url: request.url(), ms: timing.responseEnd });
  });
  try {
    delete process.env.MAPA_PONTOS_NO_NAVEGADOR;
    await server.start(databaseUrl);
    await signIn(page, server.url, fixture.supervisor);

    // choosing the project → clusters, cold (the project just changed) and warm, alternated
    const cold: number[] = [];
    const warm: number[] = [];
    for (let round = 0; round < RUNS; round += 1) {
      await touch();
      cold.push(await chooseProject(page, server.url, fixture.projetoNome));
      warm.push(await chooseProject(page, server.url, fixture.projetoNome));
    }
    console.log(`project → clusters: cold ${cold.map(Math.round).join(', ')} ms; warm ${warm.map(Math.round).join(', ')} ms`);
    const drawnAtStart = await page
      .getByTestId('supervisor-map')
      .evaluate((box: HTMLElement) => ({ ...box.dataset }));
    const memoryAtStart = { renderer: await rendererMb(page), jsHeapMb: await heapMb(page) };

    // pan and zoom, clustered: frames, and the grid requests they make
    await page.waitForTimeout(500);
    const before = grade.length;
    await startFrames(page);
    for (let round = 0; round < 2; round += 1) {
      await drag(page, 300, 160);
      await drag(page, -300, -160);
      await zoom(page, 'in');
      await zoom(page, 'in');
      await drag(page, 250, -120);
      await zoom(page, 'out');
      await zoom(page, 'out');
    }
    const clusteredFrames = frameStats(await stopFrames(page));
    const moves = grade.slice(before).map((request) => request.ms);

    // ticking 'BDGD' (a fifth of the points) off and on
    const toggles: number[] = [];
    const bdgd = page.getByRole('checkbox', { name: 'BDGD', exact: true });
    for (let round = 0; round < 5; round += 1) {
      for (const action of ['uncheck', 'check'] as const) {
        await armProbe(page, 'label', false);
        await bdgd[action]();
        toggles.push(await probeMs(page));
        await page.waitForTimeout(200);
      }
    }
    const memoryAfter = { renderer: await rendererMb(page), jsHeapMb: await heapMb(page) };
    const out = path.resolve(ROOT, 'bench/results');
    fs.mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, 'supervisor-map-1m.png') });

    console.log(
      JSON.stringify({ cold: stats(cold), warm: stats(warm), clusteredFrames, moves: stats(moves), toggles: stats(toggles), memoryAtStart, memoryAfter }),
    );

    // every point to the browser, as for a project of ≤ 150,000 (one cold and one warm choice; 2 min at most)
    let navegador: Record<string, unknown> = { skipped: true };
    if (process.env.BENCH_MAPA_NAVEGADOR !== '0') {
      await server.stop();
      process.env.MAPA_PONTOS_NO_NAVEGADOR = String(10 * points);
      await server.start(databaseUrl);
      delete process.env.MAPA_PONTOS_NO_NAVEGADOR;
      // the same origin and token secret: the session outlives the restart
      const tries: (number | string)[] = [];
      let peak = { rss: 0, footprint: 0 };
      const sampler = setInterval(() => {
        rendererMb(page).then(
          (now) => (peak = { rss: Math.max(peak.rss, now.rss), footprint: Math.max(peak.footprint, now.footprint) }),
          () => undefined,
        );
      }, 250);
      try {
        for (let round = 0; round < 2; round += 1) {
          tries.push(
            await chooseProject(page, server.url, fixture.projetoNome, 120_000).catch(
              (error: unknown) => `failed: ${String(error).split('\n')[0]}`,
            ),
          );
        }
      } finally {
        clearInterval(sampler);
      }
      navegador = { projectToClustersMs: tries, peakRenderer: peak, jsHeapMb: await heapMb(page) };
      console.log(`every point in the browser: ${JSON.stringify(navegador)}`);
    }

    const results = {
      date: new Date().toISOString(),
      viewport: DESKTOP,
      points,
      seedS,
      projectToClusters: { cold: stats(cold), warm: stats(warm), drawn: drawnAtStart },
      panZoomClustered: clusteredFrames,
      gridRequestsWhileMoving: { count: moves.length, ...stats(moves) },
      layerToggleBdgd: stats(toggles),
      memory: { atStart: memoryAtStart, afterMoves: memoryAfter },
      everyPointInTheBrowser: navegador,
    };
    console.log(JSON.stringify(results, null, 2));
    fs.writeFileSync(path.join(out, 'supervisor-map-1m.json'), `${JSON.stringify(results, null, 2)}\n`);
    expect(points).toBeGreaterThan(0);
  } finally {
    await server.dispose();
    await scratch.dropAll();
  }
});
