// Updates never interrupt work (issue 25): a new version of the app waits while a form is open, in this tab or in
// another tab of the same phone, and reloads a page only when nothing is lost by it. How the phone gets a new
// build: e2e/support/app-update.ts.
import { expect, type Page, test } from '@playwright/test';
import {
  expectAppKnowsOfUpdate,
  expectNewestControls,
  expectUpdatePrompt,
  findNewVersion,
  markPage,
  pressAtualizar,
  countSkipWaiting,
  screenshotPath,
  servePreviousBuild,
  updatePrompt,
  workerWaiting,
} from '../support/app-update';
import { expectAccessible } from '../support/axe';
import {
  acceptDialogs,
  openProjetoMenu,
  startOfflineDay,
  TechnicianHome,
  WizardPage,
} from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { deviceUnidades, expectOnServerOnce } from '../support/fault-helpers';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});
test.beforeEach(async ({ context }) => {
  await countSkipWaiting(context);
  // expectAppKnowsOfUpdate reads the page's resource timing, whose buffer keeps 250 entries by default: the map's
  // tiles could fill it before the prompt's code arrives.
  await context.addInitScript(() => performance.setResourceTimingBufferSize(10_000));
});

/** Signed in, synced and offline on the previous build, with nothing waiting yet. */
async function startOnPreviousBuild(page: Page): Promise<TechnicianHome> {
  const previous = await servePreviousBuild(page.context(), world.admin);
  const home = await startOfflineDay(page, page.context(), {
    login: world.tecnico.login,
    password: TECNICO_PASSWORD,
  });
  expect(previous.installed()).toBeGreaterThan(0);
  await previous.unroute();
  expect(await workerWaiting(page)).toBe(false);
  return home;
}

/** The unit form, opened as the technician opens it (Iniciar → the project → Unidade): no page load on the way. */
async function openUnidadeForm(page: Page): Promise<WizardPage> {
  const wizard = new WizardPage(page);
  const menu = await openProjetoMenu(page, world.projetoNome);
  await menu.getByRole('link', { name: 'Unidade' }).click();
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
  return wizard;
}

function numero(page: Page) {
  return page.getByRole('textbox', { name: 'Número', exact: true });
}

/** Leaves the form the way the technician does: the menu, 'Início'. */
async function goHome(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Início' }).click();
  await expect(page.getByRole('link', { name: 'Iniciar' })).toBeVisible();
}

/** A negative: the prompt would have shown well within this time, had the app offered it. */
async function expectNoPromptFor(page: Page, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await expect(updatePrompt(page)).toHaveCount(0);
    await page.waitForTimeout(100);
  }
}

test('a form half filled when the new version installs: no reload, no prompt until the form is left; then Atualizar', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  acceptDialogs(page);
  const home = await startOnPreviousBuild(page);

  await openUnidadeForm(page);
  await numero(page).fill('4101');
  await page.getByLabel('Complemento 1').fill('Casa dos fundos');
  const mark = await markPage(page);

  // Online, the app looks for a new version (as its hourly check does) and the browser installs it.
  await context.setOffline(false);
  await findNewVersion(page);
  await expectAppKnowsOfUpdate(page);
  await expectNoPromptFor(page, 1_500);
  expect(await mark.marked()).toBe(true);
  expect(mark.loads()).toBe(0);
  await expect(numero(page)).toHaveValue('4101');
  await expect(page.getByLabel('Complemento 1')).toHaveValue('Casa dos fundos');
  expect(await workerWaiting(page)).toBe(true);

  // The form left: the prompt, on the same page (nothing reloaded on the way).
  await goHome(page);
  const prompt = await expectUpdatePrompt(page);
  expect(await mark.marked()).toBe(true);
  await expect(home.sincronizar).toBeVisible();
  await expectAccessible(page, 'home com nova versão (Atualizar)');
  // The phone's screen as the technician sees it (a full-page shot would draw the fixed prompt mid-page).
  await page.screenshot({ path: screenshotPath('tecnico-atualizacao-prompt') });

  // 'Atualizar': one reload, and the new version runs.
  await pressAtualizar(page, prompt);
  await expectNewestControls(page);
  await expect(home.sincronizar).toBeVisible();
  await expect(updatePrompt(page)).toHaveCount(0);
  expect(await mark.marked()).toBe(false);
  expect(mark.loads()).toBe(1);
});

test('another tab updates while this one has a form open: it keeps the form, then asks, then updates; the unit syncs once', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  // Page A: the home. Page B, a second tab of the same phone: the unit form, half filled.
  const pageA = page;
  acceptDialogs(pageA);
  await startOnPreviousBuild(pageA);
  const pageB = await context.newPage();
  acceptDialogs(pageB);
  await pageB.goto('/');
  await expect.poll(() => pageB.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const wizardB = await openUnidadeForm(pageB);
  await numero(pageB).fill('4201');
  await pageB.getByLabel('Complemento 1').fill('Loja');
  const markA = await markPage(pageA);
  const markB = await markPage(pageB);

  // Online, A finds the new version and offers it; B, with its form open, does not.
  await context.setOffline(false);
  await findNewVersion(pageA);
  const promptA = await expectUpdatePrompt(pageA);
  await expectAppKnowsOfUpdate(pageB);
  await expect(updatePrompt(pageB)).toHaveCount(0);

  // A updates: A reloads; the new worker takes B over too, and B stays as it was.
  await pressAtualizar(pageA, promptA);
  await expectNewestControls(pageA);
  await expectNewestControls(pageB);
  expect(await markA.marked()).toBe(false);
  await expectNoPromptFor(pageB, 1_500);
  expect(await markB.marked()).toBe(true);
  expect(markB.loads()).toBe(0);
  await expect(numero(pageB)).toHaveValue('4201');
  await expect(pageB.getByLabel('Complemento 1')).toHaveValue('Loja');

  // B finishes its unit and saves it: the wizard starts again, still no prompt, no reload.
  await wizardB.addPhotos(2, 'Unidade 4201');
  await wizardB.gravar.click();
  await expect(pageB.getByText('Unidade gravada no aparelho.')).toBeVisible();
  await expect(wizardB.step('Passo 1 de 3: Tipo de unidade')).toBeVisible();
  await expectNoPromptFor(pageB, 1_000);
  expect(await markB.marked()).toBe(true);

  // B leaves the form: the prompt (the technician did not ask for this update); 'Atualizar' reloads B once.
  await goHome(pageB);
  const promptB = await expectUpdatePrompt(pageB);
  expect(await markB.marked()).toBe(true);
  await expectAccessible(pageB, 'segunda aba: nova versão ao sair do formulário');
  const reloadedB = pageB.waitForEvent('load');
  await promptB.getByRole('button', { name: 'Atualizar' }).click();
  await reloadedB;
  await expectNewestControls(pageB);
  expect(await markB.marked()).toBe(false);
  expect(markB.loads()).toBe(1);
  await expect(updatePrompt(pageB)).toHaveCount(0);

  // The unit saved in B, under the update, compressed and synced from B's home: once, its photos byte for byte.
  const homeB = new TechnicianHome(pageB);
  await expect(homeB.pendentes('Unidades', 1)).toBeVisible();
  await homeB.compactar.click();
  await expect(homeB.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  const held = await deviceUnidades(pageB, ['4201']);
  expect(held.map((unidade) => unidade.hashes.length)).toEqual([2]);
  await homeB.sync();
  await homeB.expectSynced();
  await expect(homeB.pendentes('Unidades', 0)).toBeVisible();
  await expectOnServerOnce(world.admin, world.projetoNome, held);
});
