// Vegetação and Grupo A in a technician's day (SPEC.md sections 2–5, 9): offline the technician records a tree
// touching the low-voltage network (its distance becomes 0) and a Grupo A consumer, each with a photo; the
// forms refuse empty required fields in Portuguese; compress, sync, and the server holds each record once with
// its photo, the Grupo A photo still carrying its GPS EXIF and the tree's without; the device keeps neither.
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import {
  acceptDialogs,
  openProjetoMenu,
  startOfflineDay,
  TechnicianHome,
  WizardPage,
} from '../support/collect-pages';
import { addPhoto, expectJpeg, hasGpsExif, serverList } from '../support/collect-checks';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld({ fluxos: 'arvore,grupoA' });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

async function addPhotoShown(page: Page, label: string, text: string, gpsExif: boolean): Promise<void> {
  await addPhoto(page, label, text, { gpsExif });
  await expect(page.getByRole('img', { name: `Miniatura da ${label}` })).toBeVisible();
}

test('records a tree and a Grupo A offline and syncs each once with its photo', async ({ page, context }) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const home = new TechnicianHome(page);
  const wizard = new WizardPage(page);

  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  await expect(home.pendentes('Vegetação', 0)).toBeVisible();
  await expect(home.pendentes('Grupo A', 0)).toBeVisible();

  const menu = await openProjetoMenu(page, world.projetoNome);
  await expect(menu.getByRole('link')).toHaveText(['Vegetação', 'Grupo A']);

  // Vegetação: contact with Baixa Tensão puts its distance at 0; Não on projection clears its list
  await menu.getByRole('link', { name: 'Vegetação' }).click();
  await expect(wizard.gravarCoordenadas).toBeDisabled();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados da vegetação')).toBeVisible();
  await wizard.gravar.click();
  await expect(page.getByText('A altura é obrigatória.')).toBeVisible();

  const contato = page.getByRole('group', { name: 'Contato com a rede?' });
  const projecao = page.getByRole('group', { name: 'Projeção sobre a rede?' });
  const distanciaBT = page.getByLabel('Distância da rede BT (cm)');
  const distanciaMT = page.getByLabel('Distância da rede MT (cm)');
  await expect(contato.getByRole('checkbox')).toHaveCount(0);
  await expect(distanciaBT).toHaveCount(0);
  await contato.getByRole('radio', { name: 'Sim' }).check();
  await expect(contato.getByRole('group', { name: 'Redes em contato' }).getByRole('checkbox')).toHaveCount(3);
  await contato.getByRole('checkbox', { name: 'Baixa Tensão' }).check();
  await expect(distanciaBT).toHaveValue('0');
  await expect(distanciaMT).toHaveCount(0);
  await projecao.getByRole('radio', { name: 'Sim' }).check();
  await projecao.getByRole('checkbox', { name: 'Média Tensão' }).check();
  await expect(distanciaMT).toHaveValue('');
  await distanciaMT.fill('150');
  await page.getByLabel('Altura (metros)').fill('8,5');
  await page.getByLabel('Diâmetro do tronco (cm)').fill('35');
  await page.getByLabel('Fenótipo').fill('Sibipiruna');
  await expect(page.getByText('A altura é obrigatória.')).toHaveCount(0);
  await expectAccessible(page, 'arvore form');
  await screenshot(page, 'tecnico-arvore-form');

  await projecao.getByRole('radio', { name: 'Não' }).check();
  await expect(projecao.getByRole('checkbox')).toHaveCount(0);
  await expect(distanciaMT).toHaveCount(0);
  await projecao.getByRole('radio', { name: 'Sim' }).check();
  await expect(projecao.getByRole('checkbox', { name: 'Média Tensão' })).not.toBeChecked();
  await projecao.getByRole('radio', { name: 'Não' }).check();
  await addPhotoShown(page, 'Foto 1', 'Arvore', true);
  await wizard.gravar.click();
  await expect(page.getByText('Vegetação gravada no aparelho.')).toBeVisible();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await expect(page.locator('path.mapa-arvore')).toHaveCount(1);
  // vegetation's own colour (its declaration's), not IP's green
  expect(await page.locator('path.mapa-arvore').getAttribute('fill')).toBe('#1b5e20');

  // Grupo A: UC and Medidor required
  await wizard.voltar.click();
  await menu.getByRole('link', { name: 'Grupo A' }).click();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados do Grupo A')).toBeVisible();
  await wizard.gravar.click();
  await expect(page.getByText('A UC é obrigatória.')).toBeVisible();
  await expect(page.getByText('O medidor é obrigatório.')).toBeVisible();
  await page.getByLabel('UC').fill('3001234567');
  await page.getByLabel('Medidor').fill('MED-4455');
  await page.getByRole('checkbox', { name: 'Levantamento acompanhado' }).check();
  await page.getByLabel('Observação').fill('Cliente presente');
  await addPhotoShown(page, 'Foto 1', 'Grupo A', true);
  await expectAccessible(page, 'grupo a form');
  await screenshot(page, 'tecnico-grupoa-form');
  await wizard.gravar.click();
  await expect(page.getByText('Grupo A gravado no aparelho.')).toBeVisible();
  await expect(page.locator('path.mapa-grupoa')).toHaveCount(1);
  expect(await page.locator('path.mapa-grupoa').getAttribute('fill')).toBe('#6a1b9a');

  // pending, offline
  await page.goto('/');
  await expect(home.pendentes('Vegetação', 1)).toBeVisible();
  await expect(home.pendentes('Grupo A', 1)).toBeVisible();
  await page.getByRole('link', { name: 'Levantamento' }).click();
  const cards = page.getByRole('list', { name: 'Registros pendentes' }).getByRole('link');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Vegetação, 8,5 m' })).toHaveCount(1);
  await expect(cards.filter({ hasText: 'Grupo A, UC 3001234567' })).toHaveCount(1);

  await page.goto('/');
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  // uploaded trees and Grupo A are deleted on the device (SPEC.md section 4)
  await expect(home.pendentes('Vegetação', 0)).toBeVisible();
  await expect(home.pendentes('Grupo A', 0)).toBeVisible();

  const arvores = await serverList(world.admin, `/api/arvore/getByZona?id=${world.zonaId}`);
  expect(arvores).toHaveLength(1);
  expect(arvores[0]).toMatchObject({
    contatoRede: ['Baixa Tensão'],
    projecaoRede: [],
    distanciaRedeBT: '0',
    distanciaRedeMT: '',
    altura: '8.5',
    diametroTronco: '35',
    fenotipo: 'Sibipiruna',
  });
  expect(arvores[0]?.fotos).toHaveLength(1);
  // trees do not keep EXIF (SPEC.md section 9)
  expect(hasGpsExif(await expectJpeg(world.admin, arvores[0]?.fotos[0] ?? ''))).toBe(false);

  const grupos = await serverList(world.admin, `/api/grupoa/${encodeURIComponent(world.projetoNome)}`);
  expect(grupos).toHaveLength(1);
  expect(grupos[0]).toMatchObject({
    uc: '3001234567',
    medidor: 'MED-4455',
    levantamentoAcompanhado: true,
    levantamentoAutorizado: false,
    observacao: 'Cliente presente',
  });
  expect(grupos[0]?.fotos).toHaveLength(1);
  // Grupo A keeps its photos' EXIF through compression
  expect(hasGpsExif(await expectJpeg(world.admin, grupos[0]?.fotos[0] ?? ''))).toBe(true);
});
