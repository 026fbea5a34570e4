// The supervisor map of a city-sized project (issue 41), at a small size: the e2e server clusters on its side past
// 1,500 points (MAPA_PONTOS_NO_NAVEGADOR in playwright.config.ts), so a project of 2,400 preloaded points takes the
// path a million take. The map draws the server's clusters, a layer's tick filters what it holds without asking
// again, a cluster's click zooms in until the points stand alone, a point opens its popup, a record uploaded
// meanwhile arrives live, and 'Clusterizar' off draws the points singly.
import { expect, type Page, test } from '@playwright/test';
import { createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { setUpWorld, TECNICO_PASSWORD } from '../support/collect-setup';
import { apiAs, SUPERVISOR_PASSWORD } from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';
import { enviar, randomPlaces, SupervisorScreen, UNIDADE } from '../support/supervisor-pages';

test.use({ viewport: DESKTOP });

/** Per layer: more than the e2e server's 1,500 together. */
const PER_LAYER = 1200;
/** Zona Centro of the sample KML (lat −25.44..−25.43, lng −49.28..−49.27). */
const AREA = { south: -25.44, north: -25.43, west: -49.28, east: -49.27 };

function gradeRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/mapa/grade')) urls.push(request.url());
  });
  return urls;
}

test('a project past the browser’s share: the server’s clusters, layers, zoom to points, a popup, live', async ({
  page,
}) => {
  const world = await setUpWorld({
    fluxos: 'hc,poste,ip,grupoA,bdgd',
    pontos: {
      pontosIP: randomPlaces(AREA, PER_LAYER, 1).map((p, i) => ({
        coordenadas: [p.lat, p.lng],
        idConcessionaria: `IP-${i}`,
        idCircuito: `C-${i % 20}`,
      })),
      pontosBDGD: randomPlaces(AREA, PER_LAYER, 2).map((p, i) => ({
        coordenadas: [p.lat, p.lng],
        idConcessionaria: `B-${i}`,
        ativo: 'Poste',
        sequencial: i + 1,
      })),
    },
  });
  const { cliente } = (await (await world.admin.get(`/api/projeto/${world.projetoId}`)).json()) as {
    cliente: string;
  };
  const supervisor = unique('sup-grade').replace(' ', '-');
  await createUser(world.admin, {
    login: supervisor,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente,
  });
  const paula = await apiAs(world.tecnico.login, TECNICO_PASSWORD);

  try {
    const login = new LoginPage(page);
    await login.goto('backoffice');
    await login.signIn(supervisor, SUPERVISOR_PASSWORD);
    await expect(page).toHaveURL('/backoffice');
    await page.goto('/backoffice/supervisor');
    const tela = new SupervisorScreen(page);
    await expect(tela.heading).toBeVisible();
    const grade = gradeRequests(page);
    const head = page.waitForResponse((response) => /\/api\/projeto\/[^/]+\/mapa(\?|$)/.test(response.url()));
    await tela.chooseProjeto(world.projetoNome);

    // the map's answer carries no points, only their counts and box
    const mapa = (await (await head).json()) as { camadas: unknown[]; grade?: { contagens: object } };
    expect(mapa.camadas).toEqual([]);
    expect(mapa.grade?.contagens).toEqual({ ip: PER_LAYER, bdgd: PER_LAYER });

    // the server's clusters, every preloaded point in one of them
    await expect.poll(async () => (await tela.drawn()).clusters).toBeGreaterThan(0);
    const clusters = await tela.clusterPixels();
    const total = (fluxo: string) =>
      clusters.filter((cluster) => cluster.fluxo === fluxo).reduce((sum, cluster) => sum + cluster.count, 0);
    expect(total('ip')).toBeGreaterThan(PER_LAYER / 2);
    expect(total('bdgd')).toBeGreaterThan(PER_LAYER / 2);
    expect(grade.length).toBeGreaterThan(0);
    await expectAccessible(page, 'supervisor map, server clusters');

    // a layer's tick filters the tiles the page holds: no request
    const asked = grade.length;
    await tela.layer('BDGD').uncheck();
    await expect
      .poll(async () => (await tela.clusterPixels()).filter((cluster) => cluster.fluxo === 'bdgd'))
      .toEqual([]);
    await tela.layer('BDGD').check();
    await expect
      .poll(async () => (await tela.clusterPixels()).some((cluster) => cluster.fluxo === 'bdgd'))
      .toBe(true);
    expect(grade.length).toBe(asked);

    // a unit uploaded now arrives live: its tile is asked again and the point is drawn
    await enviar(paula, 'unidade', world.projetoId, { lat: -25.4351, lng: -49.2751 }, UNIDADE);
    await expect
      .poll(async () => [...(await tela.pointPixels()), ...(await tela.clusterPixels())].some((p) => p.fluxo === 'hc'))
      .toBe(true);
    expect(grade.length).toBeGreaterThan(asked);

    // clicking the largest cluster zooms in, until points stand alone
    for (let click = 0; click < 6 && (await tela.pointPixels()).filter((p) => p.fluxo !== 'hc').length < 3; click += 1) {
      const size = await tela.map.boundingBox();
      const inside = (await tela.clusterPixels()).filter(
        (cluster) => cluster.x > 30 && cluster.y > 30 && cluster.x < (size?.width ?? 0) - 30 && cluster.y < (size?.height ?? 0) - 30,
      );
      const largest = inside.sort((a, b) => b.count - a.count)[0];
      if (largest === undefined) break;
      const before = grade.length;
      await tela.clickAt(largest);
      await expect.poll(() => grade.length).toBeGreaterThan(before);
      // drawn at the new zoom (the hook lists nothing while a draw belongs to another zoom)
      await expect
        .poll(async () => (await tela.pointPixels()).length + (await tela.clusterPixels()).length)
        .toBeGreaterThan(0);
    }
    const singles = (await tela.pointPixels()).filter((p) => p.fluxo === 'ip' || p.fluxo === 'bdgd');
    expect(singles.length).toBeGreaterThan(0);

    // a single IP point's popup names its record ('Id' first)
    const size = await tela.map.boundingBox();
    const ponto = singles.find(
      (p) =>
        p.fluxo === 'ip' && p.x > 40 && p.y > 120 && p.x < (size?.width ?? 0) - 40 && p.y < (size?.height ?? 0) - 40,
    );
    expect(ponto).toBeDefined();
    if (ponto === undefined) return;
    const id = await tela.pointId('ip', ponto.index);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await tela.clickAt(ponto);
    await expect(tela.popup.getByRole('term').first()).toHaveText('Id');
    await expect(tela.popup.getByRole('definition').first()).toHaveText(id ?? '');
    await page.locator('.leaflet-popup-close-button').click();

    // 'Clusterizar' off: one point per cell, no clusters
    await tela.clusterizar.uncheck();
    await expect.poll(async () => (await tela.drawn()).clusters).toBe(0);
    await expect.poll(async () => (await tela.drawn()).pontos).toBeGreaterThan(0);
    await screenshot(page, 'supervisor-grade');
  } finally {
    await paula.dispose();
    await world.admin.dispose();
  }
});
