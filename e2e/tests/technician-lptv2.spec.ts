// LPT Agiltec in a technician's day (SPEC.md sections 2–5): the project's file of 5,000 records reaches the
// phone on sync; offline the technician finds one record by Município, Nome and OS, updates its contacts where
// they stand (Atualizar localização), with a photo; the row shows as collected; compress, sync, and the
// server's list by project holds the collection once, with its photo.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import {
  acceptDialogs,
  openProjetoMenu,
  startOfflineDay,
  TechnicianHome,
  WizardPage,
} from '../support/collect-pages';
import {
  type CollectWorld,
  GPS,
  makeJpeg,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

const MUNICIPIOS = ['Lapa', 'Balsa Nova', 'Campo Largo', 'Contenda', 'Araucária'];
const NOMES = ['Maria da Silva', 'José Souza', 'Antônio Pereira', 'Ana Luíza Gonçalves', 'João Batista'];
const TOTAL = 5_000;

/** The record the technician visits, and one of the same name in another município. */
const ALVO = {
  os: '7777',
  nome: 'Benedita Aparecida Ramos',
  cpf: '321.654.987-00',
  email: 'benedita@example.com',
  telefone1: '(41) 99999-7777',
  propriedade: 'Sítio Três Irmãos',
  comunidade: 'Faxinal',
  municipio: 'Balsa Nova',
  polo: 'Polo Sul',
  regional: 'Curitiba',
};
const HOMONIMA = { ...ALVO, os: '7001', municipio: 'Lapa', comunidade: 'Água Azul' };

function arquivo(): Record<string, string>[] {
  const rows = Array.from({ length: TOTAL - 2 }, (_, i) => ({
    os: String(10_000 + i),
    nome: `${NOMES[i % NOMES.length]} ${i}`,
    cpf: '000.000.000-00',
    email: '',
    telefone1: '(41) 90000-0000',
    propriedade: `Propriedade ${i}`,
    comunidade: `Comunidade ${i % 40}`,
    municipio: MUNICIPIOS[i % MUNICIPIOS.length] ?? 'Lapa',
    polo: 'Polo Sul',
    regional: 'Curitiba',
  }));
  return [...rows, HOMONIMA, ALVO];
}

let world: CollectWorld;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  world = await setUpWorld({ fluxos: 'lpt2', pontos: { pontosLPTv2: arquivo() } });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

interface ServerRegistro {
  _id: string;
  os: string;
  possuiColeta: boolean;
  coletas: { tecnico: string; fotos: string[]; coordenadas: { lat: number; lng: number } }[];
  [field: string]: unknown;
}

async function addPhoto(page: Page, label: string, text: string): Promise<void> {
  const buffer = await makeJpeg(page, text);
  await page.getByLabel(label, { exact: true }).setInputFiles({
    name: `${text}.jpg`,
    mimeType: 'image/jpeg',
    buffer,
  });
}

test('finds an LPT Agiltec record in a 5,000-row list offline, collects it and syncs it once with its photo', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  const wizard = new WizardPage(page);

  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  await expect(home.pendentes('LPT Agiltec', 0)).toBeVisible();

  const menu = await openProjetoMenu(page, world.projetoNome);
  await menu.getByRole('link', { name: 'LPT Agiltec' }).click();

  // Step 1: the list, no map
  await expect(wizard.step('Passo 1 de 2: Escolha o registro')).toBeVisible();
  await expect(wizard.map).toHaveCount(0);
  const total = page.getByTestId('lptv2-total');
  await expect(total).toHaveText('5.000 registros');
  const rows = page.getByRole('list', { name: 'Registros LPT Agiltec' }).getByRole('button');
  await expect(rows).toHaveCount(50);
  await expect(page.getByRole('button', { name: /^Mostrar mais/ })).toBeVisible();
  await expectAccessible(page, 'lptv2 lista');
  await screenshot(page, 'tecnico-lptv2-lista');

  const municipio = page.getByRole('combobox', { name: 'Município' });
  await municipio.fill('Balsa');
  await page.getByRole('option', { name: 'Balsa Nova' }).click();
  await municipio.press('Escape');
  await expect(total).toHaveText('1.001 registros de 5.000');
  await page.getByLabel('Nome', { exact: true }).fill('benedita');
  await expect(total).toHaveText('1 registro de 5.000');
  await page.getByLabel('Nome', { exact: true }).fill('');
  await page.getByLabel('OS', { exact: true }).fill('7777');
  await expect(total).toHaveText('1 registro de 5.000');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('OS 7777 · Benedita Aparecida Ramos');
  await expect(rows.first()).toContainText('Faxinal — Balsa Nova');
  await expectAccessible(page, 'lptv2 lista filtrada');
  await screenshot(page, 'tecnico-lptv2-lista-filtrada');
  await rows.first().click();

  // Step 2: the record's data, read-only, then the collection
  await expect(wizard.step('Passo 2 de 2: Dados do registro')).toBeVisible();
  const cadastro = page.getByRole('region', { name: 'Dados do cadastro' });
  for (const text of [ALVO.nome, ALVO.cpf, ALVO.telefone1, ALVO.email, ALVO.propriedade, ALVO.regional]) {
    await expect(cadastro.getByText(text, { exact: true })).toBeVisible();
  }
  // the record just chosen, before anything is typed: its data and the empty form readable on a phone
  await expect(page.getByLabel('Telefone atualizado')).toBeVisible();
  await expectAccessible(page, 'lptv2 registro escolhido');
  await screenshot(page, 'tecnico-lptv2-registro');
  await expect(wizard.gravar).toBeDisabled();
  await page.getByLabel('Telefone atualizado').fill('41988887777');
  await page.getByRole('radio', { name: 'Em construção' }).check();
  // Known coordinates are not enough: Gravar waits for the technician to refresh them here.
  await expect(wizard.gravar).toBeDisabled();
  await page.getByRole('button', { name: 'Atualizar localização' }).click();
  await expect(page.getByTestId('localizacao')).toContainText(
    `Localização: ${GPS.latitude.toFixed(6)}, ${GPS.longitude.toFixed(6)}`,
  );
  await expect(wizard.gravar).toBeEnabled();
  await page.getByLabel('Telefone atualizado').fill('');
  await wizard.gravar.click();
  await expect(page.getByText('O telefone é obrigatório.')).toBeVisible();
  await page.getByLabel('Telefone atualizado').fill('41988887777');
  await page.getByLabel('E-mail atualizado').fill('benedita.ramos@example.com');
  await page.getByLabel('Configuração da moradia').fill('Madeira, 3 cômodos');
  await addPhoto(page, 'Foto 1', 'LPT Agiltec');
  await expect(page.getByRole('img', { name: 'Miniatura da Foto 1' })).toBeVisible();
  await expectAccessible(page, 'lptv2 form');
  await screenshot(page, 'tecnico-lptv2-form');
  await wizard.gravar.click();
  await expect(page.getByText('LPT Agiltec gravado no aparelho.')).toBeVisible();

  // Back on the list, filters kept, the row marked
  await expect(wizard.step('Passo 1 de 2: Escolha o registro')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Coletado, não enviado');
  await screenshot(page, 'tecnico-lptv2-coletado');

  // The same record chosen from the pending list (Levantamento): its own screen, read-only, readable on a phone
  await page.goto('/levantamento');
  await page.getByRole('link', { name: /LPT Agiltec OS 7777/ }).click();
  await expect(page).toHaveURL(/\/lptv2\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('radio', { name: 'Em construção' })).toBeChecked();
  await expectAccessible(page, 'lptv2 registro do levantamento');
  await screenshot(page, 'tecnico-lptv2-registro-levantamento');

  await page.goto('/');
  await expect(home.pendentes('LPT Agiltec', 1)).toBeVisible();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('LPT Agiltec', 0)).toBeVisible();

  const response = await world.admin.get(`/api/lptv2/projeto/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok(), await response.text()).toBe(true);
  const lista = (await response.json()) as ServerRegistro[];
  expect(lista).toHaveLength(TOTAL);
  expect(lista.filter((registro) => registro.possuiColeta).map((registro) => registro.os)).toEqual(['7777']);
  const coletado = lista.find((registro) => registro.os === ALVO.os);
  expect(coletado).toMatchObject({
    ...ALVO,
    possuiColeta: true,
    telefoneAtualizado: '41988887777',
    emailAtualizado: 'benedita.ramos@example.com',
    possuiCasa: 'Em construção',
    configuraMoradia: 'Madeira, 3 cômodos',
    tecnico: world.tecnico.nome,
  });
  expect(coletado?.coletas).toHaveLength(1);
  expect(coletado?.coletas[0]).toMatchObject({
    tecnico: world.tecnico.nome,
    coordenadas: { lat: GPS.latitude, lng: GPS.longitude },
  });
  const fotos = coletado?.coletas[0]?.fotos ?? [];
  expect(fotos).toHaveLength(1);
  for (const url of fotos) {
    const foto = await world.admin.get(url);
    expect(foto.headers()['content-type']).toBe('image/jpeg');
    expect([...(await foto.body()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  }

  // Still on the device after the sync, now synchronised: the row says so
  await page.getByRole('link', { name: 'Iniciar' }).click();
  await page.getByRole('link', { name: world.projetoNome }).click();
  await menu.getByRole('link', { name: 'LPT Agiltec' }).click();
  await page.getByLabel('OS', { exact: true }).fill('7777');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Coletado');
  await expect(rows.first()).not.toContainText('não enviado');
});
