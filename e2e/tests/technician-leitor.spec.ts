// Barcode scanning (issue 26): offline, a technician records a Grupo A whose 'Medidor' is read from a Code 128
// label by the phone's camera (Chromium's fake capture playing a video made here) and whose UC is typed by hand;
// the reader's WebAssembly comes from the app's own service worker, never a CDN. Compress, sync, and the server
// holds the scanned text.
// Needs the server's Content-Security-Policy to allow WebAssembly (script-src 'wasm-unsafe-eval'): under plain
// script-src 'self' Chromium refuses to compile the reader and the scanner says 'Não foi possível carregar o leitor'.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { fakeCameraArgs, writeCode128Video } from '../support/barcode-camera';
import { addPhoto, serverList } from '../support/collect-checks';
import {
  acceptDialogs,
  openProjetoMenu,
  startOfflineDay,
  TechnicianHome,
  WizardPage,
} from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { BASE_URL } from '../support/env';
import { screenshot } from '../support/screens';

const MEDIDOR = 'MED-778899-2';
const etiqueta = writeCode128Video(MEDIDOR);

test.use({
  ...TECHNICIAN_PHONE,
  permissions: [...TECHNICIAN_PHONE.permissions, 'camera'],
  // The config's Chromium and flags, plus the label video as the camera.
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({ ...launchOptions, args: [...(launchOptions.args ?? []), ...fakeCameraArgs(etiqueta)] });
    },
    { scope: 'worker' },
  ],
});
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld({ fluxos: 'grupoA' });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

test('a Grupo A whose Medidor is scanned from a Code 128 label offline reaches the server as printed', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  const wizard = new WizardPage(page);
  const requests: { url: string; fromServiceWorker: boolean }[] = [];
  page.on('requestfinished', (request) => {
    void request
      .response()
      .then((response) =>
        requests.push({ url: request.url(), fromServiceWorker: response?.fromServiceWorker() ?? false }),
      );
  });
  page.on('requestfailed', (request) => requests.push({ url: request.url(), fromServiceWorker: false }));

  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  const menu = await openProjetoMenu(page, world.projetoNome);
  await menu.getByRole('link', { name: 'Grupo A' }).click();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados do Grupo A')).toBeVisible();

  // UC typed by hand: the field beside a scan button stays an ordinary field.
  const uc = page.getByRole('textbox', { name: 'UC' });
  const medidor = page.getByRole('textbox', { name: 'Medidor' });
  await uc.fill('3001234567');
  await expect(page.getByRole('button', { name: 'Ler código de barras de UC' })).toBeVisible();

  // The scanner on UC, while a thumb still covers the code: the preview, the hint, and 'Cancelar' leaves UC alone.
  await page.getByRole('button', { name: 'Ler código de barras de UC' }).click();
  const scanner = page.getByRole('dialog', { name: 'Ler código de barras de UC' });
  await expect(scanner).toBeVisible();
  await expect(scanner.getByRole('status')).toHaveText(
    'Aponte a câmera para o código de barras ou QR Code da etiqueta.',
  );
  await expect
    .poll(() => scanner.getByTestId('leitor-video').evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0);
  await expectAccessible(page, 'leitor de código');
  await screenshot(page, 'tecnico-leitor-codigo');
  await scanner.getByRole('button', { name: 'Cancelar' }).click();
  await expect(scanner).toBeHidden();
  await expect(uc).toHaveValue('3001234567');

  // The scanner on Medidor: once the label is uncovered, its text fills the field and the dialog closes.
  await page.getByRole('button', { name: 'Ler código de barras de Medidor' }).click();
  await expect(page.getByRole('dialog', { name: 'Ler código de barras de Medidor' })).toBeVisible();
  await expect(page.getByRole('dialog')).toBeHidden({ timeout: (etiqueta.coveredSeconds + 15) * 1000 });
  await expect(medidor).toHaveValue(MEDIDOR);
  await expect(page.getByText('O medidor é obrigatório.')).toHaveCount(0);

  // The reader was the WebAssembly one (Chromium on Linux has no native BarcodeDetector), served offline by our
  // service worker; nothing was asked of another host.
  const wasm = requests.filter((request) => request.url.endsWith('.wasm'));
  expect(wasm.length).toBeGreaterThan(0);
  for (const request of wasm) {
    expect(new URL(request.url).origin).toBe(BASE_URL);
    expect(request.fromServiceWorker).toBe(true);
  }
  expect(
    requests.filter(
      (request) => new URL(request.url).origin !== BASE_URL && !request.url.startsWith('data:'),
    ),
  ).toEqual([]);

  await addPhoto(page, 'Foto 1', 'Grupo A');
  await expect(page.getByRole('img', { name: 'Miniatura da Foto 1' })).toBeVisible();
  await expectAccessible(page, 'grupo a com medidor lido');
  await screenshot(page, 'tecnico-leitor-grupoa');
  await wizard.gravar.click();
  await expect(page.getByText('Grupo A gravado no aparelho.')).toBeVisible();

  await page.goto('/');
  await expect(home.pendentes('Grupo A', 1)).toBeVisible();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Grupo A', 0)).toBeVisible();

  const grupos = await serverList(world.admin, `/api/grupoa/${encodeURIComponent(world.projetoNome)}`);
  expect(grupos).toHaveLength(1);
  expect(grupos[0]).toMatchObject({ uc: '3001234567', medidor: MEDIDOR });
});
