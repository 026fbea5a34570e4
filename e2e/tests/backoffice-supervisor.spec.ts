// The supervisor's map (SPEC.md 2 'Supervisor'): a supervisor of the client chooses a project with points in every
// layer, sees them clustered, unclusters them and reads each layer's colour off the canvas, hides a layer, opens a
// point's popup and its photos, and watches a record uploaded meanwhile arrive live with the statistics.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import { SUPERVISOR_PASSWORD } from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';
import {
  enviar,
  isColour,
  LAYER_RGB,
  lugar,
  realJpeg,
  RING_OFFSET,
  SupervisorScreen,
  type SupervisorWorld,
  setUpSupervisorWorld,
  UNIDADE,
} from '../support/supervisor-pages';

test.use({ viewport: DESKTOP });

let world: SupervisorWorld;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const jpeg = await realJpeg(page);
  await page.close();
  world = await setUpSupervisorWorld(jpeg);
});
test.afterAll(async () => {
  await world.paula.dispose();
  await world.admin.dispose();
});

async function signIn(page: Page, login: string): Promise<BackofficeShell> {
  const loginPage = new LoginPage(page);
  await loginPage.goto('backoffice');
  await loginPage.signIn(login, SUPERVISOR_PASSWORD);
  await expect(page).toHaveURL('/backoffice');
  return new BackofficeShell(page);
}

test('the supervisor follows a project on the map: layers, colours, a popup, its photos, live records', async ({
  page,
}) => {
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Supervisao').click();
  await expect(page).toHaveURL('/backoffice/supervisor');
  const tela = new SupervisorScreen(page);
  await expect(tela.heading).toBeVisible();
  await tela.chooseProjeto(world.projetoNome);

  // clustered by default: something is drawn
  await expect(tela.map).toHaveAttribute('data-pontos', /\d+/);
  await expect(tela.clusterizar).toBeChecked();
  await expect
    .poll(async () => {
      const { pontos, clusters } = await tela.drawn();
      return pontos + clusters;
    })
    .toBeGreaterThan(0);
  // the two IP points, some 40 px apart at zoom 13, make one cluster; the other layers' single points stand alone
  await expect
    .poll(async () => (await tela.clusterPixels()).map(({ fluxo, count }) => [fluxo, count]))
    .toEqual([['ip', 2]]);
  expect(await tela.drawn()).toEqual({ pontos: 4, clusters: 1 });
  for (const label of ['Unidades', 'Postes', 'Uso M./IP', 'Grupo A', 'BDGD']) {
    await expect(tela.layer(label)).toBeChecked();
  }
  // the statistics count what was collected, per flow
  await expect(tela.estatistica.getByRole('columnheader')).toHaveText(['Id', 'Fluxo', 'Total']);
  await expect
    .poll(() => tela.estatisticaRows())
    .toEqual([
      ['grupoA', 'Grupo A', '1'],
      ['hc', expect.any(String), '1'],
      ['ip', expect.any(String), '1'],
      ['poste', expect.any(String), '1'],
    ]);

  // one by one: every point drawn on its own, in its layer's colour
  await tela.clusterizar.uncheck();
  await expect.poll(async () => (await tela.drawn()).clusters).toBe(0);
  await expect.poll(async () => (await tela.drawn()).pontos).toBe(6);
  const filled = [
    ['hc', world.ids.unidade],
    ['poste', world.ids.poste],
    ['ip', world.ids.ipColetado],
    ['grupoA', world.ids.grupoA],
  ] as const;
  for (const [fluxo, id] of filled) {
    const pixel = await tela.waitForPoint(fluxo, id);
    const colour = await tela.canvasPixel(pixel.x, pixel.y);
    expect(
      isColour(colour, LAYER_RGB[fluxo]),
      `${fluxo} at ${JSON.stringify(pixel)}: ${JSON.stringify(colour)}`,
    ).toBe(true);
  }
  // preloaded and not collected: a ring of the layer's colour, clear inside
  const hollow = [
    ['ip', world.ids.ipLivre],
    ['bdgd', world.ids.bdgd],
  ] as const;
  for (const [fluxo, id] of hollow) {
    const pixel = await tela.waitForPoint(fluxo, id);
    expect((await tela.canvasPixel(pixel.x, pixel.y)).a, `${fluxo} centre`).toBe(0);
    const ring = await tela.canvasPixel(pixel.x + RING_OFFSET, pixel.y);
    expect(isColour(ring, LAYER_RGB[fluxo], 24), `${fluxo} ring: ${JSON.stringify(ring)}`).toBe(true);
  }

  // hiding a layer takes its points away, and showing it brings them back
  const posteIndex = await tela.indexOf('poste', world.ids.poste);
  const postePixel = await tela.waitForPoint('poste', world.ids.poste);
  await tela.layer('Postes').uncheck();
  await expect.poll(async () => (await tela.drawn()).pontos).toBe(5);
  expect(await tela.pointPixel('poste', posteIndex)).toBeNull();
  expect((await tela.canvasPixel(postePixel.x, postePixel.y)).a).toBe(0);
  await tela.layer('Postes').check();
  await expect.poll(async () => (await tela.drawn()).pontos).toBe(6);

  // an IP point's popup: its id, the number the server gave it (second in the project's file) and its collector
  await tela.clickAt(await tela.waitForPoint('ip', world.ids.ipColetado));
  await expect(tela.popup.getByRole('definition')).toHaveText([world.ids.ipColetado, '2', /\S/]);
  await expect(tela.popup.getByRole('term')).toHaveText(['Id', 'Sequencial', 'Técnico']);
  await page.locator('.leaflet-popup-close-button').click();
  await expect(tela.popup).toBeHidden();

  await expectAccessible(page, 'supervisor');
  await screenshot(page, 'backoffice-supervisor');

  // a record uploaded meanwhile appears within 5 s, and the statistics follow
  const novo = await enviar(world.paula, 'unidade', world.projetoId, lugar(2, 0), {
    ...UNIDADE,
    numero: '999',
  });
  await expect.poll(async () => (await tela.drawn()).pontos, { timeout: 5_000 }).toBe(7);
  await tela.waitForPoint('hc', novo, 5_000);
  await expect
    .poll(async () => (await tela.estatisticaRows()).find((row) => row[0] === 'hc')?.[2], { timeout: 5_000 })
    .toBe('2');

  // the unit's popup, then its photos
  const unidade = await tela.waitForPoint('hc', world.ids.unidade);
  await tela.clickAt(unidade);
  await expect(tela.popup).toBeVisible();
  await expect(tela.popup).toContainText('321');
  await tela.popup.getByRole('link', { name: 'Fotos' }).click();
  await expect(page).toHaveURL(new RegExp(`/unidade/${world.ids.unidade}/fotos$`));
  const foto = page.getByRole('img', { name: 'Foto 1' });
  await expect(foto).toBeVisible();
  await expect.poll(() => foto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
});
