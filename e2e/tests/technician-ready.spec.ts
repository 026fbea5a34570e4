// Ready for the field (issue 12): the first sync says 'Sincronizacao concluida' only once the app itself opens
// offline, the home says what is still missing (the project's map) and then 'Pronto para uso offline', and the
// storage panel shows what waits on the phone.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, TechnicianHome } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { putPendingUnidades } from '../support/fault-helpers';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

const DAY = 24 * 60 * 60 * 1000;

test('the first sync ends when the app opens offline, and the home says what is missing until it is ready', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  const ready = page.getByTestId('pronto-offline');

  // A busy phone: the service worker's precache of the main bundle lags well behind the sync.
  const SLOW_MS = 8_000;
  let precacheDelayed = false;
  await context.route(/\/assets\/index-[\w-]+\.js(\?.*)?$/, async (route) => {
    if (route.request().serviceWorker()) {
      precacheDelayed = true;
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    }
    await route.continue();
  });
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  const started = Date.now();
  await home.sync();
  await expect(home.status).toHaveText('Salvando o aplicativo para uso offline...');
  await home.expectSynced();
  expect(precacheDelayed).toBe(true);
  test
    .info()
    .annotations.push({ type: 'sync até concluida (ms)', description: String(Date.now() - started) });
  // No wait for the service worker here: 'concluida' itself promises the app is saved.
  await expect(ready).toContainText('Ainda não está pronto para uso offline');
  await expect(ready).toContainText(`Falta: o mapa de ${world.projetoNome} (Download do Mapa).`);
  await expect(ready).not.toContainText('o aplicativo');

  // The user's repro: network off right after the sync, reload, and the app opens.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: `Olá, ${world.tecnico.nome}` })).toBeVisible();
  await expect(ready).toContainText(`Falta: o mapa de ${world.projetoNome}`);
  await context.setOffline(false);

  // The map downloaded, the home says the phone is ready.
  await page.getByRole('link', { name: 'Iniciar' }).click();
  await page.getByRole('link', { name: world.projetoNome }).click();
  await page.getByRole('link', { name: 'Poste' }).click();
  await page.getByRole('button', { name: 'Download do Mapa' }).click();
  await expect(page.getByText(/^Mapa baixado: \d+ blocos disponíveis sem internet\.$/)).toBeVisible({
    timeout: 60_000,
  });
  await page.goto('/');
  await expect(ready).toHaveText('Pronto para uso offline');

  // The storage panel: persistent storage asked, usage, pending records and photos, the oldest one's age.
  // Two units waiting on the phone, one from four days ago, so the panel has something to count.
  const pendingIds = await putPendingUnidades(page, world.projetoId, [
    { numero: '41', dataHora: Date.now() - 4 * DAY, fotos: ['Pendente A', 'Pendente B'] },
    { numero: '42', dataHora: Date.now() - 60_000, fotos: ['Pendente C', null] },
  ]);
  await context.setOffline(true);
  await page.reload();
  await expect(ready).toHaveText('Pronto para uso offline');
  const panel = page.getByTestId('painel-armazenamento');
  await expect(panel.getByRole('heading', { name: 'Armazenamento do aparelho' })).toBeVisible();
  await expect(page.getByTestId('storage-usage')).toHaveText(
    /^Armazenamento: \d+,\d{2} GB de \d+,\d{2} GB \(\d+(,\d)?%\)$/,
  );
  await expect(page.getByTestId('storage-persist')).toHaveText(
    /^Armazenamento persistente: (concedido|negado \(o navegador pode apagar dados se faltar espaço\))$/,
  );
  await expect(page.getByTestId('pendentes-hc')).toHaveText('Unidades: 2 registros, 3 fotos');
  await expect(page.getByTestId('pendente-mais-antigo')).toHaveText('Pendente mais antigo: há 4 dias');
  await expect(page.getByTestId('aviso-armazenamento')).toHaveText(
    'Há registro pendente há 4 dias: sincronize assim que tiver conexão.',
  );
  await expect(home.pendentes('Unidades', 2)).toBeVisible();
  await expectAccessible(page, 'home pronta offline');
  await screenshot(page, 'tecnico-home-armazenamento');

  // 'Exportar pendentes' works offline: one zip with the records as the sync sends them and their photos.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar pendentes' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    new RegExp(`^pendentes-${world.tecnico.login}-\\d{4}-\\d{2}-\\d{2}-\\d{4}\\.zip$`),
  );
  await expect(page.getByTestId('status-exportacao')).toHaveText(
    `2 registros e 3 fotos exportados em ${file.suggestedFilename()}. Guarde o arquivo ou envie-o ao escritório.`,
  );
  const zipPath = test.info().outputPath('pendentes.zip');
  await file.saveAs(zipPath);
  const unzipped = unzipSync(new Uint8Array(fs.readFileSync(zipPath)));
  const manifest = JSON.parse(new TextDecoder().decode(unzipped['pendentes.json'])) as {
    tecnico: { login: string };
    registros: { fluxo: string; campos: { id: string; numero: string }; fotos: { arquivo: string }[] }[];
  };
  expect(manifest.tecnico.login).toBe(world.tecnico.login);
  expect(manifest.registros.map((r) => [r.fluxo, r.campos.id, r.campos.numero])).toEqual([
    ['hc', pendingIds[0], '41'],
    ['hc', pendingIds[1], '42'],
  ]);
  expect(Object.keys(unzipped).filter((name) => name.startsWith('fotos/'))).toHaveLength(3);
  // nothing left the device: the records are still pending
  await expect(home.pendentes('Unidades', 2)).toBeVisible();
  await context.setOffline(false);

  // The back office imports the file (administrador): both records, with their photos, once.
  const backoffice = await browser.newContext({ viewport: DESKTOP });
  const adminPage = await backoffice.newPage();
  await new LoginPage(adminPage).signInAsAdmin('backoffice/pendentes');
  await expect(adminPage.getByRole('heading', { name: 'Importar pendentes' })).toBeVisible();
  await adminPage.getByLabel('Arquivo de pendentes (.zip)').setInputFiles(zipPath);
  await adminPage.getByRole('button', { name: 'Importar' }).click();
  const resumo = adminPage.getByTestId('pendentes-resumo');
  await expect(resumo).toContainText('Gravados agora: 2');
  await expect(resumo).toContainText('Fotos gravadas: 3');
  await expect(resumo).toContainText(`Técnico: ${world.tecnico.login}`);
  await expectAccessible(adminPage, 'importar pendentes');
  await screenshot(adminPage, 'backoffice-importar-pendentes');
  await adminPage.getByRole('button', { name: 'Importar' }).click();
  await expect(resumo).toContainText('Já existiam no servidor: 2');
  await expect(resumo).toContainText('Gravados agora: 0');
  await backoffice.close();
  const unidades = (await (
    await world.admin.get(`/api/unidade/${encodeURIComponent(world.projetoNome)}`)
  ).json()) as { _id: string; tecnico: string; fotos: string[] }[];
  expect(unidades.filter((u) => pendingIds.includes(u._id)).map((u) => [u.tecnico, u.fotos.length])).toEqual([
    [world.tecnico.nome, 2],
    [world.tecnico.nome, 1],
  ]);
});
