// The supervisor map ('Supervisão de Projetos') with 100,000 points over its five layers, in headless Chromium at
// 1280x800: time from choosing the project to clusters on screen, rAF intervals while the map is dragged and
// zoomed, and time from ticking a layer to its redraw. Timings are read in the page: a capture listener stamps the
// click, a requestAnimationFrame loop stamps the first frame whose map shows the change (data-pontos /
// data-clusters, set right after each paint).
// Seeding: the e2e server is a real process on PGlite, so there is no set-based SQL from here. The IP and BDGD
// layers come preloaded through the project form's JSON fields (pontosIP, pontosBDGD: one POST), and units,
// poles and Grupo A are uploaded record by record through the API as a technician (a few hundred each).
// Numbers go to stdout and bench/results/supervisor-map.json; compare numbers within one run.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createUser, unique } from '../support/api';
import { setUpWorld, TECNICO_PASSWORD } from '../support/collect-setup';
import { apiAs, SUPERVISOR_PASSWORD } from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { DESKTOP } from '../support/screens';
import { startFrames, stopFrames } from './map-input';
import { armProbe, drag, frameStats, probeMs, stats, zoom } from './supervisor-probe';
import { enviar, POSTE, randomPlaces, SupervisorScreen, UNIDADE } from '../support/supervisor-pages';

test.use({ viewport: DESKTOP });

const TOTAL = 100_000;
/** Uploaded one by one per collected layer (hc, poste, grupoA); the rest is preloaded IP and BDGD. */
const UPLOADED_PER_LAYER = 200;
const RUNS = 5;
/** Zona Centro of the sample KML, widened a little around it. */
const AREA = { south: -25.46, north: -25.41, west: -49.3, east: -49.25 };

test('supervisor map with 100,000 points: project to clusters, pan and zoom frames, layer toggles', async ({
  page,
}) => {
  const preloaded = TOTAL - 3 * UPLOADED_PER_LAYER;
  const ipCount = Math.ceil(preloaded / 2);
  const bdgdCount = preloaded - ipCount;
  const seedStart = Date.now();
  const world = await setUpWorld({
    fluxos: 'hc,poste,ip,grupoA,bdgd',
    pontos: {
      pontosIP: randomPlaces(AREA, ipCount, 1).map((p, i) => ({
        coordenadas: [p.lat, p.lng],
        idConcessionaria: `IP-${i}`,
        idCircuito: `C-${i % 50}`,
      })),
      pontosBDGD: randomPlaces(AREA, bdgdCount, 2).map((p, i) => ({
        coordenadas: [p.lat, p.lng],
        idConcessionaria: `B-${i}`,
        ativo: 'Poste',
        sequencial: i + 1,
      })),
    },
  });
  const preloadMs = Date.now() - seedStart;
  const detail = (await (await world.admin.get(`/api/projeto/${world.projetoId}`)).json()) as {
    cliente: string;
  };
  const supervisor = unique('sup-bench').replace(' ', '-');
  await createUser(world.admin, {
    login: supervisor,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente: detail.cliente,
  });
  const paula = await apiAs(world.tecnico.login, TECNICO_PASSWORD);
  const uploadStart = Date.now();
  const jobs: (() => Promise<string>)[] = [];
  const places = randomPlaces(AREA, 3 * UPLOADED_PER_LAYER, 3);
  places.forEach((onde, i) => {
    const kind = i % 3;
    jobs.push(() =>
      kind === 0
        ? enviar(paula, 'unidade', world.projetoId, onde, UNIDADE)
        : kind === 1
          ? enviar(paula, 'poste', world.projetoId, onde, POSTE)
          : enviar(paula, 'grupoa', world.projetoId, onde, { uc: `UC-${i}`, medidor: `M-${i}` }),
    );
  });
  // eight at a time
  for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
  const uploadMs = Date.now() - uploadStart;
  await paula.dispose();

  // the map's request alone, as the server answers it (node side, no browser)
  const mapaMs: number[] = [];
  let mapaBytes = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const answer = await world.admin.get(`/api/projeto/${world.projetoId}/mapa`);
    mapaBytes = (await answer.body()).length;
    mapaMs.push(performance.now() - started);
  }
  const mapa = await world.admin.get(`/api/projeto/${world.projetoId}/mapa`);
  const body = (await mapa.json()) as { camadas: { fluxo: string; status: string }[] };
  const perLayer = Object.fromEntries(body.camadas.map((camada) => [camada.fluxo, camada.status.length]));
  const total = Object.values(perLayer).reduce((sum, count) => sum + count, 0);
  console.log(
    `seeded ${total} points ${JSON.stringify(perLayer)} (preload ${preloadMs} ms, uploads ${uploadMs} ms)`,
  );
  expect(total).toBe(TOTAL);

  await new LoginPage(page).goto('backoffice');
  await new LoginPage(page).signIn(supervisor, SUPERVISOR_PASSWORD);
  await expect(page).toHaveURL('/backoffice');
  const tela = new SupervisorScreen(page);

  // choosing the project to clusters on screen, from a fresh page each run
  const toClusters: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    await page.goto('/backoffice/supervisor');
    await expect(tela.heading).toBeVisible();
    await tela.projeto.click();
    await armProbe(page, '[role="option"]', true);
    await page.getByRole('option', { name: world.projetoNome, exact: true }).click();
    toClusters.push(await probeMs(page));
    await expect.poll(async () => (await tela.drawn()).clusters).toBeGreaterThan(0);
  }
  console.log(`project → clusters: ${toClusters.map(Math.round).join(', ')} ms`);
  const drawnAtStart = await tela.drawn();

  // frames while dragging and zooming, clustered
  await page.waitForTimeout(500);
  await startFrames(page);
  for (let round = 0; round < 2; round += 1) {
    await drag(page, 300, 160);
    await drag(page, -300, -160);
    await zoom(page, 'in');
    await zoom(page, 'in');
    await zoom(page, 'out');
    await zoom(page, 'out');
  }
  const clusteredFrames = frameStats(await stopFrames(page));

  // layer toggles: untick and tick 'BDGD' (about half the points), click to the frame that shows it
  const toggles: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    for (const action of ['uncheck', 'check'] as const) {
      await armProbe(page, 'label', false);
      await tela.layer('BDGD')[action]();
      toggles.push(await probeMs(page));
      await page.waitForTimeout(200);
    }
  }
  console.log(`layer toggle: ${toggles.map(Math.round).join(', ')} ms`);

  // unclustered: the toggle of 'Clusterizar' and frames while dragging with every point drawn on its own
  const unclusterMs: number[] = [];
  await zoom(page, 'in');
  await zoom(page, 'in');
  for (let run = 0; run < RUNS; run += 1) {
    for (const action of ['uncheck', 'check'] as const) {
      await armProbe(page, 'label', false);
      await tela.clusterizar[action]();
      if (action === 'uncheck') unclusterMs.push(await probeMs(page));
      else await probeMs(page);
      await page.waitForTimeout(200);
    }
  }
  await tela.clusterizar.uncheck();
  await expect.poll(async () => (await tela.drawn()).clusters).toBe(0);
  const drawnUnclustered = await tela.drawn();
  await startFrames(page);
  await drag(page, 300, 160);
  await drag(page, -300, -160);
  await zoom(page, 'out');
  await zoom(page, 'in');
  const unclusteredFrames = frameStats(await stopFrames(page));

  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  await page.screenshot({ path: path.join(out, 'supervisor-map-100k.png') });
  const results = {
    date: new Date().toISOString(),
    viewport: DESKTOP,
    points: { total, perLayer, seeding: { preloadMs, uploadMs, uploadedPerLayer: UPLOADED_PER_LAYER } },
    mapaRequest: { ...stats(mapaMs), bytes: mapaBytes },
    projectToClusters: { ...stats(toClusters), drawn: drawnAtStart },
    panZoomClustered: clusteredFrames,
    layerToggleBdgd: stats(toggles),
    unclusterAtZoom15: { ...stats(unclusterMs), drawn: drawnUnclustered },
    panZoomUnclustered: unclusteredFrames,
  };
  console.log(JSON.stringify(results, null, 2));
  fs.writeFileSync(path.join(out, 'supervisor-map.json'), `${JSON.stringify(results, null, 2)}\n`);
});
