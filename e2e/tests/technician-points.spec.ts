// The four point flows in a technician's day (SPEC.md sections 2–5): a project with Uso Mútuo / IP, LPT, BDGD
// and Fiscalização and points preloaded by the back office; offline the technician collects a preloaded IP
// point, draws an LPT point and a BDGD asset, corrects two values of a fiscalização, each with photos; the
// colours change as the spec says; compress, sync, and the server holds each collection once with its photos.
import { expect, type Locator, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { addPhoto, expectJpegs, serverList } from '../support/collect-checks';
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
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

const CONFIRMA_FOTOS =
  'TODOS ITENS DO POSTE FORAM FOTOGRAFADOS? SE SIM "OK", SE NÃO "CANCELAR" E CAPTURE AS FOTOS ANTES DE GRAVAR';

let world: CollectWorld;

test.beforeAll(async () => {
  // Points a few metres from the technician's GPS fix, so the zoom-19 map shows them all.
  world = await setUpWorld({
    fluxos: 'ip,lpt,bdgd,fiscalizacao',
    pontos: {
      pontosIP: [
        {
          coordenadas: [GPS.latitude + 0.0001, GPS.longitude - 0.00015],
          idConcessionaria: 'IP-100',
          idCircuito: 'C-7',
          quantidadeCompartilhamento: 2,
        },
      ],
      pontosBDGD: [
        {
          coordenadas: [GPS.latitude - 0.00012, GPS.longitude + 0.00012],
          idConcessionaria: 'BD-1',
          ativo: 'Transformador',
          sequencial: 7,
        },
      ],
      pontosFiscalizacao: [
        {
          coordenadas: [GPS.latitude + 0.00012, GPS.longitude + 0.00015],
          barramento: 'B1',
          tipo: 'CONCRETO',
          altura: '10',
          carga: '300',
          placa: 'PL-9',
          medidor: 'M-5',
          faseConsumidor: 'A',
        },
      ],
    },
  });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

/** The fill colour Leaflet gave a marker. */
const fillOf = (marker: Locator) => marker.getAttribute('fill');

test('collects the four point flows offline and syncs each collection once with its photos', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const dialogs = acceptDialogs(page);
  const home = new TechnicianHome(page);
  const wizard = new WizardPage(page);

  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  for (const label of ['Uso Mútuo / IP', 'LPT', 'BDGD', 'Fiscalização']) {
    await expect(home.pendentes(label, 0)).toBeVisible();
  }

  const menu = await openProjetoMenu(page, world.projetoNome);
  await expect(menu.getByRole('link')).toHaveText(['Uso Mútuo / IP', 'LPT', 'BDGD', 'Fiscalização']);
  await expectAccessible(page, 'menu dos pontos');
  await screenshot(page, 'tecnico-pontos-menu');

  // Uso Mútuo / IP: the preloaded point is lime until collected, then red (collected and from the back office)
  await menu.getByRole('link', { name: 'Uso Mútuo / IP' }).click();
  const ip = page.locator('path.mapa-ip');
  await expect(ip).toHaveCount(1);
  expect(await fillOf(ip)).toBe('lime');
  await expectAccessible(page, 'ip mapa');
  await screenshot(page, 'tecnico-ip-mapa');
  await ip.click();
  await expect(wizard.step('Passo 2 de 2: Dados do ponto')).toBeVisible();
  await expect(page.getByLabel('ID da concessionária')).toHaveValue('IP-100');
  await expect(page.getByRole('button', { name: 'Excluir' })).toBeDisabled();
  await wizard.gravar.click();
  await expect.poll(() => dialogs.at(-1)).toBe('POR FAVOR ESCOLHA UM DOS ITENS');
  const possuiIP = page.getByRole('checkbox', { name: 'Possui IP', exact: true });
  const anomalia = page.getByRole('checkbox', { name: 'IP com anomalia' });
  const nenhum = page.getByRole('checkbox', { name: 'Não possui IP nem uso mútuo' });
  await expect(anomalia).toBeDisabled();
  await possuiIP.check();
  await anomalia.check();
  await possuiIP.uncheck();
  await expect(anomalia).not.toBeChecked();
  await expect(anomalia).toBeDisabled();
  await possuiIP.check();
  await expect(nenhum).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Possui uso mútuo' }).check();
  await addPhoto(page, 'Foto 1', 'IP 1');
  await addPhoto(page, 'Foto 2', 'IP 2');
  await expectAccessible(page, 'ip form');
  await screenshot(page, 'tecnico-ip-form');
  await wizard.gravar.click();
  await expect(page.getByText('Ponto gravado no aparelho.')).toBeVisible();
  expect(dialogs.at(-1)).toBe(CONFIRMA_FOTOS);
  await expect(page.locator('path.mapa-ip.mapa-coletado')).toHaveCount(1);
  expect(await fillOf(page.locator('path.mapa-ip'))).toBe('red');

  // LPT: a point drawn on the map, deletable until sync
  await wizard.voltar.click();
  await menu.getByRole('link', { name: 'LPT' }).click();
  await expect(wizard.gravarCoordenadas).toBeDisabled();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados do LPT')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Excluir' })).toBeEnabled();
  await wizard.gravar.click();
  await expect(page.getByText('Qtd. Casas é obrigatório.')).toBeVisible();
  await page.getByLabel('Qtd. Casas').fill('120');
  await wizard.gravar.click();
  await expect(page.getByText('Qtd. Casas deve ser um número de 1 a 99.')).toBeVisible();
  await page.getByLabel('Qtd. Casas').fill('3');
  await addPhoto(page, 'Foto 1', 'LPT');
  await expectAccessible(page, 'lpt form');
  await screenshot(page, 'tecnico-lpt-form');
  await wizard.gravar.click();
  await expect(page.getByText('LPT gravado no aparelho.')).toBeVisible();
  await expect(page.locator('path.mapa-lpt.mapa-coletado')).toHaveCount(1);

  // BDGD: a new asset, its photos as one list, its sequencial decided by the server
  await wizard.voltar.click();
  await menu.getByRole('link', { name: 'BDGD' }).click();
  await expect(page.locator('path.mapa-bdgd.mapa-nao-coletado')).toHaveCount(1);
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(page.getByTestId('bdgd-sequencial')).toHaveText(
    'Sequencial: definido pelo servidor na sincronização',
  );
  await page.getByLabel('Tipo de ativo').selectOption('Chave');
  await addPhoto(page, 'Adicionar foto', 'BDGD 1');
  await addPhoto(page, 'Adicionar foto', 'BDGD 2');
  await expect(page.getByRole('img', { name: /^Miniatura da Foto \d$/ })).toHaveCount(2);
  await expectAccessible(page, 'bdgd form');
  await screenshot(page, 'tecnico-bdgd-form');
  await wizard.gravar.click();
  await expect(page.getByText('BDGD gravado no aparelho.')).toBeVisible();
  await expect(page.locator('path.mapa-bdgd.mapa-coletado')).toHaveCount(1);
  await expect(page.locator('path.mapa-bdgd.mapa-nao-coletado')).toHaveCount(1);
  await screenshot(page, 'tecnico-bdgd-mapa');

  // Fiscalização: only the groups with original values, two corrections
  await wizard.voltar.click();
  await menu.getByRole('link', { name: 'Fiscalização' }).click();
  await page.locator('path.mapa-fiscalizacao').click();
  await expect(page.getByRole('region', { name: 'Poste' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Medidor' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Equipamento' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Corrigir Material' })).toHaveCount(0);
  await expect(page.getByLabel('Altura corrigido')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Corrigir Altura' }).check();
  await page.getByLabel('Altura corrigido').fill('12');
  await page.getByRole('checkbox', { name: 'Corrigir Placa' }).check();
  await page.getByLabel('Placa corrigido').fill('PL-10');
  await addPhoto(page, 'Foto 1', 'Fiscalização');
  await expectAccessible(page, 'fiscalizacao form');
  await screenshot(page, 'tecnico-fiscalizacao-form');
  await wizard.gravar.click();
  await expect(page.getByText('Fiscalização gravada no aparelho.')).toBeVisible();
  await expect(page.locator('path.mapa-fiscalizacao.mapa-coletado')).toHaveCount(1);

  // pending, offline
  await page.goto('/');
  for (const label of ['Uso Mútuo / IP', 'LPT', 'BDGD', 'Fiscalização']) {
    await expect(home.pendentes(label, 1)).toBeVisible();
  }
  await page.getByRole('link', { name: 'Levantamento' }).click();
  const cards = page.getByRole('list', { name: 'Registros pendentes' }).getByRole('link');
  await expect(cards).toHaveCount(4);
  await expectAccessible(page, 'levantamento pontos');
  await screenshot(page, 'tecnico-levantamento-pontos');

  await page.goto('/');
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  for (const label of ['Uso Mútuo / IP', 'LPT', 'BDGD', 'Fiscalização']) {
    await expect(home.pendentes(label, 0)).toBeVisible();
  }

  const ips = await serverList(world.admin, `/api/ip/${encodeURIComponent(world.projetoNome)}`);
  expect(ips).toHaveLength(1);
  expect(ips[0]).toMatchObject({
    coletado: true,
    carregadoBackoffice: true,
    possuiIP: true,
    possuiUsoMutuo: true,
    possuiIrregularidade: false,
    idConcessionaria: 'IP-100',
    sequencial: 1,
    tecnico: world.tecnico.nome,
  });
  expect(ips[0]?.fotos).toHaveLength(2);
  await expectJpegs(world.admin, ips[0]?.fotos ?? []);

  const lpts = await serverList(world.admin, `/api/lpt/getByZona?id=${world.zonaId}`);
  expect(lpts).toHaveLength(1);
  expect(lpts[0]).toMatchObject({
    coletado: true,
    adicionadoApp: true,
    carregadoBackoffice: false,
    qtdCasas: '3',
  });
  expect(lpts[0]?.fotos).toHaveLength(1);

  const bdgds = await serverList(world.admin, `/api/bdgd/projeto/${world.projetoId}`);
  expect(bdgds).toHaveLength(2);
  const novo = bdgds.find((bdgd) => bdgd.adicionadoApp);
  expect(novo).toMatchObject({ coletado: true, ativo: 'Chave', sequencial: 8 });
  expect(novo?.fotos).toHaveLength(2);
  await expectJpegs(world.admin, novo?.fotos ?? []);
  expect(bdgds.find((bdgd) => bdgd.carregadoBackoffice)).toMatchObject({ coletado: false, sequencial: 7 });

  const fiscalizacoes = await serverList(
    world.admin,
    `/api/fiscalizacao/projeto/${encodeURIComponent(world.projetoNome)}`,
  );
  expect(fiscalizacoes).toHaveLength(1);
  expect(fiscalizacoes[0]).toMatchObject({
    coletado: true,
    altura: '10',
    placa: 'PL-9',
    correcaoAltura: '12',
    correcaoPlaca: 'PL-10',
  });
  expect(fiscalizacoes[0]?.fotos).toHaveLength(1);

  // the points stay on the device, synchronised, with the colour of a collected point
  await page.getByRole('link', { name: 'Iniciar' }).click();
  await page.getByRole('link', { name: world.projetoNome }).click();
  await menu.getByRole('link', { name: 'Uso Mútuo / IP' }).click();
  await expect(page.locator('path.mapa-ip.mapa-coletado')).toHaveCount(1);
  expect(await fillOf(page.locator('path.mapa-ip'))).toBe('red');
  // a point collected and synchronised opens on its record screen, read-only: never re-collected by a tap
  await page.locator('path.mapa-ip').click();
  await expect(page).toHaveURL(/\/ip\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Este registro já está no servidor', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Gravar', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Excluir' })).toBeDisabled();
  // the number the server gave the point (SPEC.md 3: the IP's sequencial) came down with the sync
  await expect(page.getByTestId('ip-sequencial')).toHaveText('Sequencial: 1');
  await expectAccessible(page, 'ip registro sincronizado');
  await screenshot(page, 'tecnico-ip-registro');
  await page.getByRole('link', { name: 'Ver fotos' }).click();
  await expect(page.getByRole('img', { name: /^Foto \d$/ })).toHaveCount(2);
});
