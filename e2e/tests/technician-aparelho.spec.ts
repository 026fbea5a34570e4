// The phone as it really is (issue 25), weeks offline: the home warns of a record waiting more than 24 hours, and an
// iPhone's Safari is told to add Novus to the home screen, where iOS keeps the site's data.
import { devices, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, signInSynced, startOfflineDay } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { deviceUnidades, expectOnServerOnce, putPendingUnidades } from '../support/fault-helpers';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const WARNING = 'Há registros não sincronizados há mais de 24 horas';
const HINT = /^Para não perder registros, adicione o Novus à Tela de Início/;

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

/**
 * What moved on the home above the storage panel since the page loaded (Chromium's layout shifts): the nodes of the
 * home's column that shifted, by their text. The body's own shift as the app's styles arrive is not the home's.
 */
async function movedOnTheHome(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        // LayoutShift is not in TypeScript's DOM types yet: only its sources are read
        type Shift = PerformanceEntry & { sources?: { node?: Node | null }[] };
        const column = document.querySelector('h1')?.parentElement ?? null;
        const panel = document.querySelector('[data-testid="painel-armazenamento"]');
        const above = (node: Node) =>
          panel === null || (panel.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
        const moved: string[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Shift[]) {
            for (const { node } of entry.sources ?? []) {
              if (node && column?.contains(node) && above(node))
                moved.push(node.textContent ?? node.nodeName);
            }
          }
        });
        observer.observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            observer.disconnect();
            resolve(moved);
          }),
        );
      }),
  );
}

const warning = (page: Page) => page.getByTestId('pendentes-antigos');
const hint = (page: Page) => page.getByTestId('dica-instalar');

test('a record waiting more than 24 hours: the home warns, also left open across the hour, and the sync ends it', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  acceptDialogs(page);
  const home = await startOfflineDay(page, context, {
    login: world.tecnico.login,
    password: TECNICO_PASSWORD,
  });

  // A unit saved now, as a phone stores it (dataHora is the phone's clock at the save); then it is the phone's clock
  // that moves on, as it does in the field: the record is untouched, and the home open across the 24 hours is the
  // case only a moving clock shows (a record dated 25 hours back would show only the first paint).
  const collected = Date.now();
  await putPendingUnidades(page, world.projetoId, [{ numero: '5001', dataHora: collected }]);
  const held = await deviceUnidades(page, ['5001']);
  await page.clock.install({ time: collected + HOUR });
  await page.reload();
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await expect(warning(page)).toHaveCount(0);
  // never on a phone that is not an iPhone or iPad
  await expect(hint(page)).toHaveCount(0);

  // The home left open: half a minute before 24 hours, nothing; the next minute's look at the clock, the warning,
  // below the banners and above the actions, with no reload.
  await page.clock.pauseAt(collected + 24 * HOUR - 30_000);
  expect(await page.evaluate(() => Date.now())).toBe(collected + 24 * HOUR - 30_000);
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await expect(warning(page)).toHaveCount(0);
  await page.clock.runFor(MINUTE);
  await expect(warning(page)).toHaveText(WARNING);
  await page.clock.resume();

  // The next day: 25 hours after the save, the home opens with the warning on its first paint (from the banners it
  // cached), so no action button moves when the device's figures arrive.
  await page.clock.fastForward(HOUR);
  await page.reload();
  expect(await page.evaluate(() => Date.now())).toBeGreaterThan(collected + 25 * HOUR);
  await expect(warning(page)).toHaveText(WARNING);
  await page.getByTestId('painel-armazenamento').getByText('Pendente mais antigo: há 1 dia').waitFor();
  expect(await movedOnTheHome(page)).toEqual([]);
  await expect(warning(page)).toBeVisible();
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  const order = await page.evaluate(() =>
    ['pendentes', 'pendentes-antigos'].map(
      (id) => document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().top ?? -1,
    ),
  );
  const iniciar = await page.getByRole('link', { name: 'Iniciar' }).boundingBox();
  expect(order[0]).toBeLessThan(order[1] ?? -1);
  expect(order[1]).toBeLessThan(iniciar?.y ?? -1);
  await expect(hint(page)).toHaveCount(0);
  await expectAccessible(page, 'home com pendentes de mais de 24 horas');
  await screenshot(page, 'tecnico-home-pendentes-24h');

  // Signal again: the sync sends it, once, and the warning goes.
  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(warning(page)).toHaveCount(0);
  await expectOnServerOnce(world.admin, world.projetoNome, held);
  await page.reload();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(warning(page)).toHaveCount(0);
});

test.describe('on an iPhone', () => {
  // Safari's user agent in Chromium: what the app reads to tell an iPhone (Chromium has no navigator.standalone,
  // and a tab is not in the standalone display mode, as Safari outside the home screen).
  test.use({ userAgent: devices['iPhone 13'].userAgent });

  test('Safari outside the home screen: a hint to add Novus there, until Entendi, for good', async ({
    page,
  }) => {
    acceptDialogs(page);
    const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
    await expect(home.sincronizar).toBeVisible();
    await expect(hint(page)).toBeVisible();
    await expect(hint(page)).toHaveText(HINT);
    await expect(hint(page)).toContainText('“Adicionar à Tela de Início”');
    await expect(hint(page)).toContainText('podem ser apagados após 7 dias sem uso.');
    await expectAccessible(page, 'home com a dica de instalar');
    await screenshot(page, 'tecnico-home-dica-instalar');

    await hint(page).getByRole('button', { name: 'Entendi' }).click();
    await expect(hint(page)).toHaveCount(0);
    await page.reload();
    await expect(home.sincronizar).toBeVisible();
    await expect(hint(page)).toHaveCount(0);
    await page.goto('/projetos');
    await page.goto('/');
    await expect(home.sincronizar).toBeVisible();
    await expect(hint(page)).toHaveCount(0);
  });

  test('the app opened from the home screen: no hint', async ({ page }) => {
    // iOS's home-screen app: Safari's own flag
    await page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'standalone', { get: () => true }),
    );
    acceptDialogs(page);
    const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
    await expect(home.sincronizar).toBeVisible();
    await expect(hint(page)).toHaveCount(0);
  });
});

test('a phone that is not an iPhone: never the hint', async ({ page }) => {
  acceptDialogs(page);
  const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  expect(await page.evaluate(() => navigator.userAgent)).not.toMatch(/iPhone|iPad|iPod|Macintosh/);
  await expect(home.sincronizar).toBeVisible();
  await expect(hint(page)).toHaveCount(0);
  await page.reload();
  await expect(home.sincronizar).toBeVisible();
  await expect(hint(page)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('novus.dicaInstalarEntendida'))).toBeNull();
});
