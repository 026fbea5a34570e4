// 'Repetir último' (issue 26): offline, a pole saved with its fields; the next one takes them with one tap (marked
// until changed), one field changed, another point, a photo; the same for a unit. Synced, the server's records
// agree on the repeated fields and differ in where they are and in what was changed. Once the records have left
// the phone, the next form still repeats the last one. The taps of both ways are counted (the bench).
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, startOfflineDay, type TechnicianHome, WizardPage } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import {
  fillPosteByHand,
  formFields,
  openPosteForm,
  POSTE_A_MAO,
  RepetirUltimo,
  TapCounter,
  tapMapAt,
} from '../support/repetir-pages';
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
  dataHora: number;
  coordenadas: { lat: number; lng: number };
  fotos: string[];
  [field: string]: unknown;
}

async function serverRecords(path: string): Promise<ServerRecord[]> {
  const response = await world.admin.get(`/api/${path}/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as ServerRecord[]).sort((a, b) => a.dataHora - b.dataHora);
}

/** The unit wizard: SDU, a point at (x, y), the first pole on the map as its drop, then the form. */
async function newUnidadeSdu(page: Page, x: number, y: number): Promise<WizardPage> {
  const wizard = new WizardPage(page);
  await page.goto(`/projeto/${world.projetoId}/addUnidades`);
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await tapMapAt(wizard.map, x, y);
  await page.locator('.mapa-poste').first().click();
  await expect(page.getByText('Poste escolhido.')).toBeVisible();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
  return wizard;
}

async function compressAndSync(home: TechnicianHome): Promise<void> {
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await home.sync();
  await home.expectSynced();
}

test('Repetir último fills the next pole and unit from the last ones, marked until changed, and both sync', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  acceptDialogs(page);
  const home = await startOfflineDay(page, context, {
    login: world.tecnico.login,
    password: TECNICO_PASSWORD,
  });
  const repetir = new RepetirUltimo(page);
  const { select, text, checkbox } = formFields(page);
  const aterramento = checkbox('Aterramento');

  // The first pole: nothing to repeat yet; every field by hand.
  let wizard = await openPosteForm(page, world.projetoId, 0.3, 0.7);
  await expect(repetir.button).toBeDisabled();
  await expect(repetir.button).toHaveAccessibleDescription(
    'Nenhum registro anterior seu neste projeto para repetir.',
  );
  await expectAccessible(page, 'poste sem nada a repetir');
  await screenshot(page, 'tecnico-poste-repetir-vazio');
  const byHand = new TapCounter();
  await fillPosteByHand(page, byHand);
  // not counted: the note is this pole's own and is not repeated
  await text('Observação').fill('Inclinado sobre o muro');
  await wizard.addPhotos(1, 'Poste 1');
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();

  // The next pole: one tap fills the pole's fields, marked; a changed field loses its mark.
  wizard = await openPosteForm(page, world.projetoId, 0.7, 0.3);
  await expect(repetir.marks).toHaveCount(0);
  const withRepeat = new TapCounter();
  await withRepeat.tap(repetir.button);
  await expect(page.getByRole('status').filter({ hasText: 'repetidos' })).toHaveText(
    '6 campos repetidos do último registro.',
  );
  await expect(select('Tipo')).toHaveValue('MADEIRA');
  await expect(select('Altura')).toHaveValue('11');
  await expect(select('Carga')).toHaveValue('300');
  await expect(select('Tipo de rede elétrica')).toHaveValue('MISTA');
  await expect(aterramento).toBeChecked();
  await expect(select('Equipamento de rede de energia')).toHaveValue('TRANSFORMADOR');
  await expect(text('Observação')).toHaveValue('');
  await expect(repetir.marks).toHaveCount(6);
  for (const label of Object.keys(POSTE_A_MAO)) await repetir.expectMarked(select(label));
  await repetir.expectMarked(aterramento);
  await repetir.expectNotMarked(text('Observação'));
  await expectAccessible(page, 'poste repetido');
  await screenshot(page, 'tecnico-poste-repetir');
  await withRepeat.choose(select('Altura'), '12');
  await repetir.expectNotMarked(select('Altura'));
  await expect(repetir.marks).toHaveCount(5);
  await repetir.expectMarked(select('Carga'));
  await expectAccessible(page, 'poste repetido e alterado');
  await wizard.addPhotos(1, 'Poste 2');
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();
  const bench = {
    poste: { semRepetir: { ...byHand }, comRepetir: { ...withRepeat } },
    unidade: { semRepetir: new TapCounter(), comRepetir: new TapCounter() },
  };

  // The first unit: a shop, by hand.
  wizard = await newUnidadeSdu(page, 0.5, 0.85);
  await expect(repetir.button).toBeDisabled();
  const unitByHand = bench.unidade.semRepetir;
  await unitByHand.choose(select('Tipo de edificação'), 'Comercial');
  await unitByHand.choose(select('Tipo de imóvel'), 'padaria');
  await unitByHand.type(text('Número'), '120');
  await unitByHand.type(text('Quantidade'), '2');
  await text('Complemento 1').fill('Loja 2');
  await wizard.addPhotos(1, 'Unidade 120');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();

  // The next unit: its type and number are its own; the shop's building, property and quantity are repeated.
  wizard = await newUnidadeSdu(page, 0.2, 0.4);
  const unitWithRepeat = bench.unidade.comRepetir;
  await unitWithRepeat.tap(repetir.button);
  await expect(select('Tipo de unidade')).toHaveValue('SDU');
  await expect(select('Tipo de edificação')).toHaveValue('Comercial');
  await expect(select('Tipo de imóvel')).toHaveValue('padaria');
  await expect(text('Quantidade')).toHaveValue('2');
  await expect(text('Número')).toHaveValue('');
  await expect(text('Complemento 1')).toHaveValue('');
  await expect(repetir.marks).toHaveCount(3);
  await repetir.expectMarked(select('Tipo de imóvel'));
  await repetir.expectNotMarked(text('Número'));
  await unitWithRepeat.type(text('Número'), '122');
  await unitWithRepeat.type(text('Quantidade'), '3');
  await repetir.expectNotMarked(text('Quantidade'));
  await expect(repetir.marks).toHaveCount(2);
  await expectAccessible(page, 'unidade repetida');
  await screenshot(page, 'tecnico-unidade-repetir');
  await wizard.addPhotos(1, 'Unidade 122');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();

  // Online: compress, sync; the records leave the phone.
  await context.setOffline(false);
  await page.goto('/');
  await compressAndSync(home);
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();

  const postes = await serverRecords('poste/getByNomeProjeto');
  expect(postes).toHaveLength(2);
  const [poste1, poste2] = postes as [ServerRecord, ServerRecord];
  for (const name of ['tipo', 'carga', 'tipoRedeEletrica', 'aterramento', 'equipamentoRedeEnergia']) {
    expect(poste2[name], name).toEqual(poste1[name]);
  }
  expect(poste1).toMatchObject({ tipo: 'MADEIRA', carga: '300', equipamentoRedeEnergia: 'TRANSFORMADOR' });
  expect([poste1.altura, poste2.altura]).toEqual(['11', '12']);
  expect(poste1.observacao).toBe('Inclinado sobre o muro');
  expect(poste2.observacao ?? '').toBe('');
  expect(poste2.coordenadas).not.toEqual(poste1.coordenadas);
  expect([poste1.fotos.length, poste2.fotos.length]).toEqual([1, 1]);

  const unidades = await serverRecords('unidade');
  expect(unidades).toHaveLength(2);
  const [unidade1, unidade2] = unidades as [ServerRecord, ServerRecord];
  for (const name of ['tipoUnidade', 'tipoEdificacao', 'tipoImovel']) {
    expect(unidade2[name], name).toEqual(unidade1[name]);
  }
  expect(unidade1).toMatchObject({
    tipoEdificacao: 'Comercial',
    tipoImovel: 'padaria',
    complemento1: 'Loja 2',
  });
  expect([unidade1.numero, unidade2.numero]).toEqual(['120', '122']);
  expect([unidade1.quantidade, unidade2.quantidade]).toEqual(['2', '3']);
  expect(unidade2.complemento1 ?? '').toBe('');
  expect(unidade2.coordenadas).not.toEqual(unidade1.coordenadas);

  // The poles have left the phone; the next pole still repeats the last one (the changed height included).
  wizard = await openPosteForm(page, world.projetoId, 0.8, 0.85);
  await repetir.button.click();
  await expect(select('Altura')).toHaveValue('12');
  await expect(select('Tipo')).toHaveValue('MADEIRA');
  await expect(repetir.marks).toHaveCount(6);

  for (const [flow, counts] of Object.entries(bench)) {
    const line = `${flow}: sem 'Repetir último' ${counts.semRepetir.taps} toques (${counts.semRepetir.actions} ações), com ${counts.comRepetir.taps} toques (${counts.comRepetir.actions} ações)`;
    test.info().annotations.push({ type: 'toques', description: line });
    console.log(line);
  }
});
