// Outdoors (issue 26): 'Alto contraste', turned on in the side menu, makes every technician screen readable in the
// sun: every text at 7:1 (axe's color-contrast-enhanced) and the wizards' buttons 56 px high. The phone remembers it.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { enhancedContrastViolations, expectAccessible } from '../support/axe';
import { acceptDialogs, signInSynced, WizardPage } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

const TALL = 56;

/** The side menu's switch; the menu opens from the app bar. */
async function openMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Menu lateral' });
  await expect(menu).toBeVisible();
  return page.getByRole('switch', { name: 'Alto contraste' });
}

async function closeMenu(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('navigation', { name: 'Menu lateral' })).toBeHidden();
}

/** axe with color-contrast-enhanced: no text under 7:1, and none of the usual serious or critical violations. */
async function expectReadableOutdoors(page: Page, screen: string): Promise<void> {
  await expectAccessible(page, `${screen} (alto contraste)`, { enhancedContrast: true });
}

/** Every button of the screen (the wizard's action bar and steps included) at least 56 px high, its label inside. */
async function expectTallButtons(page: Page, screen: string, minimum = TALL): Promise<void> {
  const buttons = await page
    .getByRole('main')
    .getByRole('button')
    .filter({ visible: true })
    .evaluateAll((elements) =>
      elements
        // Leaflet's zoom links say role="button"; they are the map's, sized by the map (44 px)
        .filter((button) => button.closest('.leaflet-container') === null)
        .map((button) => ({
          name: button.textContent?.trim() ?? '',
          height: Math.round(button.getBoundingClientRect().height),
          // a label wider than its button spills over its border (bold, larger text)
          spills: button.scrollWidth > button.clientWidth + 1,
        })),
    );
  expect(buttons.length, `buttons on ${screen}`).toBeGreaterThan(0);
  const short = buttons.filter(({ height }) => height < minimum);
  expect(short, `buttons under ${minimum} px on ${screen}`).toEqual([]);
  const spilling = buttons.filter(({ spills }) => spills).map(({ name }) => name);
  expect(spilling, `labels wider than their button on ${screen}`).toEqual([]);
}

test('Alto contraste: on in the menu, every screen at 7:1 with 56 px buttons, kept after a reload, off again', async ({
  page,
}) => {
  test.setTimeout(240_000);
  acceptDialogs(page);
  await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  const iniciar = page.getByRole('link', { name: 'Iniciar' });
  await expect(iniciar).toBeVisible();
  const normalHeight = (await iniciar.boundingBox())?.height ?? 0;
  expect(normalHeight).toBeLessThan(TALL);

  // The switch in the side menu.
  const alto = await openMenu(page);
  await expect(alto).not.toBeChecked();
  await alto.check();
  await expect(alto).toBeChecked();
  await expectReadableOutdoors(page, 'menu lateral');
  await screenshot(page, 'tecnico-alto-contraste-menu');
  await closeMenu(page);

  // The home.
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await expectTallButtons(page, 'home');
  await expectReadableOutdoors(page, 'home');
  await screenshot(page, 'tecnico-alto-contraste-home');

  // The projects, the project's flows.
  await iniciar.click();
  await expect(page.getByRole('heading', { name: 'Escolha um projeto' })).toBeVisible();
  await expect(page.getByRole('link', { name: world.projetoNome })).toBeVisible();
  await expectAccessible(page, 'projetos (alto contraste)', { enhancedContrast: true });
  await page.getByRole('link', { name: world.projetoNome }).click();
  const fluxos = page.getByRole('navigation', { name: 'Fluxos do projeto' });
  await expect(fluxos.getByRole('link', { name: 'Unidade' })).toBeVisible();
  await expectReadableOutdoors(page, 'projeto');

  // A unit, each step: the type, the map (nothing chosen: 'Gravar Coordenadas' disabled; then a point), the form
  // (a missing number, then filled with photos), saved (the snackbar).
  const wizard = new WizardPage(page);
  await fluxos.getByRole('link', { name: 'Unidade' }).click();
  await expect(wizard.step('Passo 1 de 3: Tipo de unidade')).toBeVisible();
  await expectTallButtons(page, 'unidade tipo');
  await expectReadableOutdoors(page, 'unidade tipo');
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await expect(wizard.step('Passo 2 de 3: Coordenadas')).toBeVisible();
  await expect(wizard.gravarCoordenadas).toBeDisabled();
  await expect(page.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  await expectTallButtons(page, 'unidade mapa');
  await expectReadableOutdoors(page, 'unidade mapa, nenhum ponto');
  await wizard.tapMap();
  await expect(wizard.gravarCoordenadas).toBeEnabled();
  await expectReadableOutdoors(page, 'unidade mapa, ponto escolhido');
  await screenshot(page, 'tecnico-alto-contraste-unidade-mapa');
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
  await wizard.gravar.click();
  await expect(page.getByText('O número é obrigatório.')).toBeVisible();
  await expectTallButtons(page, 'unidade form');
  await expectReadableOutdoors(page, 'unidade form com erro');
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('321');
  await wizard.addPhotos(2, 'Unidade');
  await expectReadableOutdoors(page, 'unidade form com fotos');
  await screenshot(page, 'tecnico-alto-contraste-unidade-form');
  await wizard.gravar.click();
  const saved = page.getByRole('alert').filter({ hasText: 'Unidade gravada no aparelho.' });
  await expect(saved).toBeVisible();
  await expectReadableOutdoors(page, 'unidade gravada');

  // The pole: the map at the GPS position, the form with photos.
  await wizard.voltar.click();
  await fluxos.getByRole('link', { name: 'Poste' }).click();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await wizard.minhaLocalizacao.click();
  await expectTallButtons(page, 'poste mapa');
  await expectReadableOutdoors(page, 'poste mapa');
  await wizard.gravarCoordenadas.click();
  await page.getByLabel('Altura').selectOption('10');
  await page.getByLabel('Carga').selectOption('300');
  await page.getByLabel('Tipo de rede elétrica').selectOption('MISTA');
  await wizard.addPhotos(1, 'Poste');
  await expectTallButtons(page, 'poste form');
  await expectReadableOutdoors(page, 'poste form');
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();

  // Levantamento and a record's screen (read-only fields, 'Gravar' disabled).
  await page.goto('/levantamento');
  const cards = page.getByRole('list', { name: 'Registros pendentes' }).getByRole('link');
  await expect(cards).toHaveCount(2);
  await expectReadableOutdoors(page, 'levantamento');
  await cards.filter({ hasText: 'Poste' }).click();
  await expect(page).toHaveURL(/\/poste\/[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Altura')).toHaveValue('10');
  await expectTallButtons(page, 'poste registro');
  await expectReadableOutdoors(page, 'poste registro');

  // The phone remembers it.
  await page.goto('/');
  await page.reload();
  await expect(iniciar).toBeVisible();
  await expectTallButtons(page, 'home depois de recarregar');
  await expectReadableOutdoors(page, 'home depois de recarregar');
  const again = await openMenu(page);
  await expect(again).toBeChecked();

  // Off: the normal theme is back, which axe's color-contrast-enhanced does fail (so the rule did run above).
  await again.uncheck();
  await expect(again).not.toBeChecked();
  await closeMenu(page);
  await expect.poll(async () => (await iniciar.boundingBox())?.height).toBe(normalHeight);
  await expectAccessible(page, 'home, tema normal');
  expect(await enhancedContrastViolations(page)).not.toEqual([]);
  await expect(expectAccessible(page, 'home, tema normal', { enhancedContrast: true })).rejects.toThrow(
    /color-contrast-enhanced/,
  );
  await page.reload();
  await expect(iniciar).toBeVisible();
  expect((await iniciar.boundingBox())?.height).toBe(normalHeight);
});
