// The technician's day (SPEC.md sections 2–5): sync a project, collect a unit and a pole offline with photos,
// compress, sync, and the server has each record once with its JPEGs.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, TechnicianHome, WizardPage } from '../support/collect-pages';
import {
  type CollectWorld,
  GPS,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { LoginPage } from '../support/login-page';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

interface ServerRecord {
  _id: string;
  numero?: string;
  tipoUnidade?: string;
  drop?: string;
  altura?: string;
  precisao?: number;
  fotos: string[];
}

async function serverUnidades(): Promise<ServerRecord[]> {
  const response = await world.admin.get(`/api/unidade/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ServerRecord[];
}

async function serverPostes(): Promise<ServerRecord[]> {
  const response = await world.admin.get(
    `/api/poste/getByNomeProjeto/${encodeURIComponent(world.projetoNome)}`,
  );
  expect(response.ok()).toBe(true);
  return (await response.json()) as ServerRecord[];
}

async function signInAndSync(page: Page, home: TechnicianHome): Promise<void> {
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await home.sync();
  await home.expectSynced();
}

test('collects a unit and a pole offline, compresses and syncs them with their photos', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const dialogs = acceptDialogs(page);
  const home = new TechnicianHome(page);
  await signInAndSync(page, home);
  expect(dialogs).toEqual(['Esse procedimento leva alguns minutos para concluir. Deseja continuar?']);
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back office' })).toHaveCount(0);

  // the app shell must be in the service worker before the network goes
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await page.getByRole('link', { name: 'Iniciar' }).click();
  await page.getByRole('link', { name: world.projetoNome }).click();
  await expect(page.getByText('Sincronize a câmera antes de começar.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Unidade' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Poste' })).toBeVisible();
  await expectAccessible(page, 'projeto');
  await screenshot(page, 'tecnico-projeto-menu');

  // Download do Mapa while online, then the map draws from the cache offline
  await page.getByRole('link', { name: 'Poste' }).click();
  const wizard = new WizardPage(page);
  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText(/^Mapa baixado: \d+ blocos disponíveis sem internet\.$/)).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(/^Downloading: (\d+) de \1$/)).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await wizard.voltar.click();
  await expect(page).toHaveURL(`/projeto/${world.projetoId}`);

  // the unit: type, map, form
  await page.getByRole('link', { name: 'Unidade' }).click();
  await expect(wizard.step('Passo 1 de 3: Tipo de unidade')).toBeVisible();
  await expectAccessible(page, 'unidade tipo');
  await screenshot(page, 'tecnico-unidade-tipo');
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await expect(wizard.step('Passo 2 de 3: Coordenadas')).toBeVisible();
  await expect(wizard.gravarCoordenadas).toBeDisabled();
  await expect(page.getByText('Escolha um ponto no mapa')).toBeVisible();
  await expect(page.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  await expect(page.locator('.mapa-zona')).toHaveCount(1);
  await expect(page.locator('.mapa-posicao')).toHaveCount(1);
  await wizard.tapMap();
  await expect(page.locator('.mapa-ponto-escolhido')).toHaveCount(1);
  await expect(wizard.gravarCoordenadas).toBeEnabled();
  await expectAccessible(page, 'unidade mapa');
  await screenshot(page, 'tecnico-unidade-mapa');
  await wizard.gravarCoordenadas.click();

  await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
  await expect(page.getByLabel('Tipo de imóvel')).toHaveValue('RESIDENCIAL');
  await expect(page.getByLabel('Quantidade')).toHaveValue('1');
  await wizard.gravar.click();
  await expect(page.getByText('O número é obrigatório.')).toBeVisible();
  await expectAccessible(page, 'unidade form com erro');
  await screenshot(page, 'tecnico-unidade-erro');
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('123');
  await page.getByLabel('Complemento 1').fill('Casa dos fundos');
  await wizard.addPhotos(3, 'Unidade');
  await screenshot(page, 'tecnico-unidade-fotos');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
  await expect(wizard.step('Passo 1 de 3: Tipo de unidade')).toBeVisible();

  // the pole: map (GPS), form, back to the map
  await wizard.voltar.click();
  await page.getByRole('link', { name: 'Poste' }).click();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await wizard.minhaLocalizacao.click();
  await wizard.gravarCoordenadas.click();
  await expect(page.getByRole('combobox', { name: 'Tipo', exact: true })).toHaveValue('CONCRETO DUPLO T');
  await expect(page.getByLabel('Equipamento de rede de energia')).toHaveValue('NAO POSSUI');
  await page.getByLabel('Altura').selectOption('10');
  await page.getByLabel('Carga').selectOption('300');
  await page.getByLabel('Tipo de rede elétrica').selectOption('MISTA');
  await page.getByLabel('Aterramento').check();
  await wizard.addPhotos(2, 'Poste');
  await expectAccessible(page, 'poste form');
  await screenshot(page, 'tecnico-poste-form');
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await expect(page.locator('.mapa-poste')).toHaveCount(1);
  await screenshot(page, 'tecnico-poste-mapa');

  // the pending list and the galleries, still offline
  await page.goto('/');
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await expect(home.pendentes('Postes', 1)).toBeVisible();
  await page.getByRole('link', { name: 'Levantamento' }).click();
  const cards = page.getByRole('list', { name: 'Registros pendentes' }).getByRole('link');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText('Poste CONCRETO DUPLO T');
  await expect(cards.nth(1)).toContainText('Unidade SDU, nº 123');
  await expectAccessible(page, 'levantamento');
  await screenshot(page, 'tecnico-levantamento');

  await cards.nth(1).click();
  await expect(page).toHaveURL(/\/unidade\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('textbox', { name: 'Número', exact: true })).toHaveValue('123');
  await expectAccessible(page, 'unidade detalhe');
  await page.getByRole('link', { name: 'Ver fotos' }).click();
  await expect(page.getByRole('img', { name: /^Foto \d$/ })).toHaveCount(3);
  await expectAccessible(page, 'unidade fotos');
  await screenshot(page, 'tecnico-unidade-galeria');
  await page.goto('/levantamento');
  await cards.nth(0).click();
  await expect(page).toHaveURL(/\/poste\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Gravar', exact: true })).toBeDisabled();
  await expect(page.getByLabel('Altura')).toHaveValue('10');
  await expectAccessible(page, 'poste detalhe');
  await screenshot(page, 'tecnico-poste-detalhe');
  await page.getByRole('link', { name: 'Ver fotos' }).click();
  await expect(page.getByRole('img', { name: /^Foto \d$/ })).toHaveCount(2);

  // sync is refused until the photos are compressed
  await page.goto('/');
  await home.sync();
  await expect.poll(() => dialogs.at(-1)).toBe('Nao e possivel sincronizar. Favor compactar imagens.');
  const started = Date.now();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  test.info().annotations.push({ type: 'compress 5 photos (ms)', description: String(Date.now() - started) });

  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  await expectAccessible(page, 'home sincronizada');
  await screenshot(page, 'tecnico-home-sincronizada');
  await page.getByRole('link', { name: 'Levantamento' }).click();
  await expect(page.getByText('Não há dados a serem exibidos')).toBeVisible();

  const [unidade, ...moreUnidades] = await serverUnidades();
  expect(moreUnidades).toHaveLength(0);
  expect(unidade).toMatchObject({ numero: '123', tipoUnidade: 'SDU', precisao: GPS.accuracy });
  expect(unidade?.fotos).toHaveLength(3);
  for (const url of unidade?.fotos ?? []) {
    const foto = await world.admin.get(url);
    expect(foto.headers()['content-type']).toBe('image/jpeg');
    expect([...(await foto.body()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  }
  const postes = await serverPostes();
  expect(postes).toHaveLength(1);
  expect(postes[0]).toMatchObject({ altura: '10' });
  expect(postes[0]?.fotos).toHaveLength(2);
});

test('a response lost mid-sync is retried without duplicating the record', async ({ page }) => {
  const dialogs = acceptDialogs(page);
  const home = new TechnicianHome(page);
  await signInAndSync(page, home);

  await page.goto(`/projeto/${world.projetoId}/addUnidades`);
  const wizard = new WizardPage(page);
  await page.getByRole('button', { name: 'MDU (edifício)' }).click();
  // the pole synced by the first journey is on the map: the unit needs it as its drop
  await wizard.tapMap();
  await expect(wizard.gravarCoordenadas).toBeDisabled();
  await page.locator('.mapa-poste').first().click();
  await expect(page.getByText('Poste escolhido.')).toBeVisible();
  await wizard.gravarCoordenadas.click();
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('456');
  await wizard.gravar.click();
  await expect(page.getByText('O nome do edifício é obrigatório.')).toBeVisible();
  await expect(page.getByText('O total de andares é obrigatório.')).toBeVisible();
  await page.getByLabel('Nome do edifício').fill('Edifício Araucária');
  await page.getByLabel('Total de andares').fill('8');
  await page.getByLabel('Apartamentos por andar').fill('4');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();

  // the server stores the unit, but its answer never reaches the phone
  let lost = 0;
  await page.context().route('**/api/unidade', async (route) => {
    if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
    lost += 1;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await page.goto('/');
  await home.sync();
  await expect(home.status).toContainText('Ocorreu um erro na sincronizacao', { timeout: 30_000 });
  expect(lost).toBe(1);
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await screenshot(page, 'tecnico-sync-erro');

  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  expect(dialogs.filter((text) => text.startsWith('Esse procedimento'))).toHaveLength(3);
  const stored = (await serverUnidades()).filter((unidade) => unidade.numero === '456');
  expect(stored).toHaveLength(1);
  expect(stored[0]?.tipoUnidade).toBe('MDU');
  const [poste] = await serverPostes();
  expect(stored[0]?.drop).toBe(poste?._id);
});

test('a session that expired before the sync sends the technician to log in, and nothing is lost', async ({
  page,
  context,
}) => {
  const dialogs = acceptDialogs(page);
  const home = new TechnicianHome(page);
  await signInAndSync(page, home);

  await page.goto(`/projeto/${world.projetoId}/addUnidades`);
  const wizard = new WizardPage(page);
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await wizard.tapMap();
  await page.locator('.mapa-poste').first().click();
  await expect(page.getByText('Poste escolhido.')).toBeVisible();
  await wizard.gravarCoordenadas.click();
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('789');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();

  // The server no longer knows this session (its cookie expired); the device still has the record.
  await context.clearCookies();
  await page.goto('/');
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await home.sync();
  await expect(page).toHaveURL(/\/login$/);
  expect(dialogs.at(-1)).toBe(
    'Sua sessão expirou. Faça login novamente para sincronizar; nenhum dado foi perdido.',
  );
  expect((await serverUnidades()).filter((unidade) => unidade.numero === '789')).toHaveLength(0);

  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  expect((await serverUnidades()).filter((unidade) => unidade.numero === '789')).toHaveLength(1);
});
