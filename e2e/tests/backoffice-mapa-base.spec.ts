// 'Mapa offline' of the project form (issue 23): an administrador uploads a real PMTiles archive to a project in
// Curitiba, sees what it holds and that it leaves the zones out, is refused an invalid file in Portuguese without
// losing the form or the stored map, and removes it; the client's supervisor sees the section read-only.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createCliente, createProjeto, createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { LoginPage } from '../support/login-page';
import { ProjetoFormPage } from '../support/projeto-pages';
import { DESKTOP } from '../support/screens';

const KML = path.resolve(import.meta.dirname, '../../docs/samples/zoneamento-curitiba.kml');
const PMTILES = path.resolve(import.meta.dirname, '../../../shared/realworld/pmtiles');
/** USGS imagery of Mt. Whitney, California: WebP tiles at zoom 8 to 15, 1 964 599 bytes, 50 tiles. */
const USGS = path.join(PMTILES, 'usgs-mt-whitney-webp-z8-15.pmtiles');
/** tippecanoe's one-tile vector fixture, layer 'test_fixture_1pmtiles'. */
const VETORIAL = path.join(PMTILES, 'vector-fixture-1.pmtiles');
/** 148 bytes that are not a PMTiles archive. */
const INVALID = path.join(PMTILES, 'invalid.pmtiles');
const PASSWORD = 'senha-e2e-1234';

test.use({ viewport: DESKTOP });

/** The 'Mapa offline' section of 'Alterar Projeto'. */
class MapaOfflineSection {
  readonly section: Locator;
  readonly escolher: Locator;
  readonly arquivo: Locator;
  readonly enviar: Locator;
  readonly url: Locator;
  readonly usarUrl: Locator;
  readonly remover: Locator;
  readonly progresso: Locator;
  readonly dialog: Locator;
  /** Whether the archive covers the project's zones (a warning when it leaves some out). */
  readonly cobertura: Locator;

  constructor(private readonly page: Page) {
    this.section = page.getByRole('region', { name: 'Mapa offline' });
    this.escolher = this.section.getByRole('button', { name: 'Escolher arquivo PMTiles' });
    this.arquivo = this.section.getByLabel('Arquivo PMTiles', { exact: true });
    this.enviar = this.section.getByRole('button', { name: /^(Enviar|Substituir) mapa$/ });
    this.url = this.section.getByRole('textbox', { name: 'URL do arquivo PMTiles' });
    this.usarUrl = this.section.getByRole('button', { name: 'Usar URL' });
    this.remover = this.section.getByRole('button', { name: 'Remover mapa offline' });
    this.progresso = this.section.getByRole('progressbar', { name: 'Envio do mapa offline' });
    this.dialog = page.getByRole('dialog', { name: 'Tem certeza?' });
    this.cobertura = this.section.getByRole('note');
  }

  /** The value shown beside a term ('Tipo', 'Zooms', ...). */
  dado(term: string): Locator {
    return this.section
      .locator('dt', { hasText: new RegExp(`^${term}$`) })
      .locator('xpath=following-sibling::dd[1]');
  }

  text(text: string | RegExp): Locator {
    return this.section.getByText(text);
  }

  /** The section at 1280×800, scrolled into view (a full-page shot draws the fixed app bar mid-page). */
  async screenshot(name: string): Promise<void> {
    await this.section.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await this.page.screenshot({ path: path.join(import.meta.dirname, '..', 'screenshots', `${name}.png`) });
  }

  async upload(file: string): Promise<void> {
    await this.arquivo.setInputFiles(file);
    await expect(this.text(path.basename(file))).toBeVisible();
    await this.enviar.click();
  }
}

async function projetoEmCuritiba(page: Page): Promise<{ id: string; clienteId: string; nome: string }> {
  const clienteId = await createCliente(page.request, unique('Cliente Mapa'));
  const nome = unique('Projeto Mapa');
  const id = await createProjeto(page.request, {
    nome,
    cliente: clienteId,
    fluxos: 'hc',
    kml: fs.readFileSync(KML, 'utf8'),
  });
  return { id, clienteId, nome };
}

test('an administrador uploads a real PMTiles to a project, is refused an invalid one, and removes it', async ({
  page,
}) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  const projeto = await projetoEmCuritiba(page);

  // a new project: the package comes after saving it
  await page.goto('/backoffice/projeto/add');
  const novo = new MapaOfflineSection(page);
  await expect(novo.text('O mapa offline pode ser adicionado depois de gravar o projeto.')).toBeVisible();
  await expect(novo.escolher).toHaveCount(0);

  const form = new ProjetoFormPage(page);
  const mapa = new MapaOfflineSection(page);
  await page.goto(`/backoffice/projeto/${projeto.id}`);
  await expect(form.heading('Alterar Projeto')).toBeVisible();
  await expect(form.nome).toHaveValue(projeto.nome);
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();
  await expect(mapa.remover).toHaveCount(0);
  await expect(mapa.arquivo).toHaveAttribute('accept', '.pmtiles');

  // the real USGS raster, on a link slow enough to watch the progress bar
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: (4 * 1024 * 1024) / 8, // 4 Mbit/s: the 1.9 MB archive takes about 4 s
  });
  await mapa.arquivo.setInputFiles(USGS);
  await expect(mapa.text('usgs-mt-whitney-webp-z8-15.pmtiles')).toBeVisible();
  await expect(mapa.text('1,9 MB')).toBeVisible();
  await mapa.enviar.click();
  await expect(mapa.progresso).toBeVisible();
  await expect(mapa.text(/^Enviando: \d+%$/)).toBeVisible();
  await expect(mapa.escolher).toBeDisabled();
  await mapa.screenshot('backoffice-mapa-offline-enviando');
  await expect(mapa.section.getByRole('status')).toHaveText('Mapa offline guardado.', { timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(mapa.progresso).toHaveCount(0);

  await expect(mapa.dado('Arquivo')).toHaveText('usgs-mt-whitney-webp-z8-15.pmtiles');
  await expect(mapa.dado('Tipo')).toHaveText('Raster WebP');
  await expect(mapa.dado('Zooms')).toHaveText('8 a 15');
  await expect(mapa.dado('Tamanho')).toHaveText('1,9 MB');
  await expect(mapa.dado('Blocos')).toHaveText('50 blocos');
  await expect(mapa.dado('Limites')).toHaveText(
    /^latitude 36,56\d\d° a 36,59\d\d°, longitude -118,3\d+° a -118,2\d+°$/,
  );
  await expect(mapa.dado('Atribuição')).toHaveText(
    'Created by QGIS algorithm: Generate XYZ tiles (Directory)',
  );
  // California is far from Curitiba: the warning names every zone it leaves out
  const aviso = mapa.cobertura;
  await expect(aviso).toHaveClass(/MuiAlert-standardWarning/);
  await expect(aviso).toContainText('O mapa offline não cobre as zonas');
  for (const zona of ['Zona Centro', 'Zona Batel', 'Zona Rebouças']) await expect(aviso).toContainText(zona);
  await expectAccessible(page, 'projeto mapa offline');
  await mapa.screenshot('backoffice-mapa-offline');

  // stored: the page reloaded shows the same package
  await page.reload();
  await expect(mapa.dado('Tipo')).toHaveText('Raster WebP');
  await expect(aviso).toContainText('Zona Rebouças');

  // an invalid archive: the server's Portuguese 4xx, the stored map and the form untouched
  await form.nome.fill(`${projeto.nome} (editado)`);
  await mapa.upload(INVALID);
  const erro = mapa.section.getByRole('alert');
  await expect(erro).toBeVisible();
  await expect(erro).toHaveText(/não é um (mapa )?PMTiles/);
  await expect(erro).not.toHaveText(/Falha ao enviar o mapa offline/);
  await expect(mapa.dado('Arquivo')).toHaveText('usgs-mt-whitney-webp-z8-15.pmtiles');
  await expect(form.nome).toHaveValue(`${projeto.nome} (editado)`);
  await expectAccessible(page, 'projeto mapa offline with an error');
  await mapa.screenshot('backoffice-mapa-offline-erro');
  const stored = await page.request.get(`/api/projeto/${projeto.id}/mapa-base`);
  expect(stored.status()).toBe(200);
  expect(((await stored.json()) as { nome: string }).nome).toBe('usgs-mt-whitney-webp-z8-15.pmtiles');

  // removal asks first; Não keeps it
  await mapa.remover.click();
  await expect(mapa.dialog).toContainText('Isso irá remover o mapa offline do projeto');
  await expectAccessible(page, 'projeto mapa offline removal dialog');
  await mapa.dialog.getByRole('button', { name: 'Não' }).click();
  await expect(mapa.dialog).toBeHidden();
  await expect(mapa.dado('Tipo')).toHaveText('Raster WebP');
  await mapa.remover.click();
  await mapa.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(mapa.section.getByRole('status')).toHaveText('Mapa offline removido.');
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();
  await expect(mapa.remover).toHaveCount(0);
  expect((await page.request.get(`/api/projeto/${projeto.id}/mapa-base`)).status()).toBe(404);
});

test('a URL is checked before sending and refused by the server in Portuguese when it is internal; Enter there does not save the project form', async ({
  page,
}) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  const projeto = await projetoEmCuritiba(page);
  const form = new ProjetoFormPage(page);
  const mapa = new MapaOfflineSection(page);
  await page.goto(`/backoffice/projeto/${projeto.id}`);
  await expect(form.nome).toHaveValue(projeto.nome);

  await mapa.url.fill('mapa.pmtiles');
  await mapa.url.press('Enter');
  await expect(mapa.text('Informe a URL de um arquivo PMTiles (http ou https).')).toBeVisible();
  await expect(page.getByText('Projeto alterado com sucesso.')).toHaveCount(0);
  await expect(mapa.url).toHaveAccessibleDescription('Informe a URL de um arquivo PMTiles (http ou https).');

  // the e2e server may not read its own network (no MAPA_BASE_ALLOW_PRIVATE): its answer shows, nothing stored
  await form.nome.fill(`${projeto.nome} (editado)`);
  await mapa.url.fill('http://127.0.0.1:9/mapa.pmtiles');
  await mapa.usarUrl.click();
  const erro = mapa.section.getByRole('alert');
  await expect(erro).toHaveText(/A URL aponta para um endereço interno/);
  await expect(mapa.url).toHaveValue('http://127.0.0.1:9/mapa.pmtiles');
  await expect(form.nome).toHaveValue(`${projeto.nome} (editado)`);
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();
  await expect(page.getByText('Projeto alterado com sucesso.')).toHaveCount(0);
});

test('an upload cancelled midway stores nothing; the archive sent again is stored, then replaced by a vector one', async ({
  page,
}) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  const projeto = await projetoEmCuritiba(page);
  const mapa = new MapaOfflineSection(page);
  await page.goto(`/backoffice/projeto/${projeto.id}`);
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: (1024 * 1024) / 8, // 1 Mbit/s: about 15 s for the archive
  });
  await mapa.upload(USGS);
  await expect(mapa.text(/^Enviando: \d+%$/)).toBeVisible();
  await mapa.section.getByRole('button', { name: 'Cancelar envio' }).click();
  await expect(mapa.section.getByRole('status')).toHaveText(
    'Envio cancelado: o mapa offline não foi alterado.',
  );
  await expect(mapa.progresso).toHaveCount(0);
  await expect(mapa.escolher).toBeEnabled();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  expect((await page.request.get(`/api/projeto/${projeto.id}/mapa-base`)).status()).toBe(404);

  // the same file again, whole this time
  await mapa.enviar.click();
  await expect(mapa.section.getByRole('status')).toHaveText('Mapa offline guardado.');
  await expect(mapa.dado('Zooms')).toHaveText('8 a 15');

  // replaced by a vector archive: its kind and layers
  await mapa.upload(VETORIAL);
  await expect(mapa.dado('Arquivo')).toHaveText('vector-fixture-1.pmtiles');
  await expect(mapa.dado('Tipo')).toHaveText('Vetorial (MVT)');
  await expect(mapa.dado('Zooms')).toHaveText('0');
  await expect(mapa.dado('Blocos')).toHaveText('1 bloco');
  await expect(mapa.dado('Camadas')).toHaveText('test_fixture_1pmtiles');
});

test('a 10 GB file over the limit is refused in Portuguese before it is sent', async ({ page }) => {
  // sparse: 10 GB to the browser and the upload's Content-Length, no disk used
  const big = path.join(test.info().outputDir, 'grande.pmtiles');
  fs.mkdirSync(path.dirname(big), { recursive: true });
  fs.closeSync(fs.openSync(big, 'w'));
  fs.truncateSync(big, 10 * 1024 ** 3);
  await new LoginPage(page).signInAsAdmin('backoffice');
  const projeto = await projetoEmCuritiba(page);
  const mapa = new MapaOfflineSection(page);
  await page.goto(`/backoffice/projeto/${projeto.id}`);
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();
  await mapa.arquivo.setInputFiles(big);
  await expect(mapa.text('10,00 GB')).toBeVisible();
  await mapa.enviar.click();
  await expect(mapa.section.getByRole('alert')).toHaveText(
    /O arquivo excede o tamanho máximo do mapa offline/,
  );
  await expect(mapa.text(/Este projeto não tem mapa offline/)).toBeVisible();
  fs.rmSync(big); // on a failure the run's output folder, emptied by the next run, keeps it
});

test("the client's supervisor sees the package but cannot change it", async ({ page, browser }) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  const projeto = await projetoEmCuritiba(page);
  const upload = await page.request.put(`/api/projeto/${projeto.id}/mapa-base?nome=usgs.pmtiles`, {
    headers: { 'Content-Type': 'application/vnd.pmtiles' },
    data: fs.readFileSync(USGS),
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const login = unique('sup-mapa').replace(' ', '-');
  await createUser(page.request, {
    login,
    password: PASSWORD,
    firstName: 'Sara',
    lastName: 'Mapa',
    roles: ['supervisor'],
    cliente: projeto.clienteId,
  });

  const context = await browser.newContext({ viewport: DESKTOP, locale: 'pt-BR' });
  const supervisorPage = await context.newPage();
  const loginPage = new LoginPage(supervisorPage);
  await loginPage.goto('backoffice');
  await loginPage.signIn(login, PASSWORD);
  await expect(supervisorPage).not.toHaveURL(/\/login/);
  await supervisorPage.goto(`/backoffice/projeto/${projeto.id}`);
  const mapa = new MapaOfflineSection(supervisorPage);
  await expect(mapa.dado('Tipo')).toHaveText('Raster WebP');
  await expect(mapa.text('Somente o administrador pode alterar o mapa offline.')).toBeVisible();
  await expect(mapa.escolher).toHaveCount(0);
  await expect(mapa.url).toHaveCount(0);
  await expect(mapa.remover).toHaveCount(0);
  await context.close();
});
