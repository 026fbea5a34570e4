// 'Próximo ponto' on a day of Uso Mútuo / IP (issue 26): three points preloaded at known distances from the
// technician; offline, the button names and centres the nearest with its distance and direction, which follow the
// GPS as they walk; once that point is collected the next one is picked; the search by idConcessionaria opens one.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, openProjetoMenu, startOfflineDay, WizardPage } from '../support/collect-pages';
import {
  type CollectWorld,
  GPS,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { ProximoPontoPanel } from '../support/proximo-page';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);

let world: CollectWorld;

/**
 * In Zona Centro, around the fix at (-25.435, -49.275): 0.0001° of latitude is 11.1 m, of longitude 10.0 m.
 * The file lists them far to near, so the server's numbering is not the order of distance.
 */
const SUDOESTE = { id: 'IP-SUDOESTE', lat: GPS.latitude - 0.0009, lng: GPS.longitude - 0.001 }; // 142 m
const LESTE = { id: 'IP-LESTE', lat: GPS.latitude, lng: GPS.longitude + 0.0006 }; // 60 m
const NORTE = { id: 'IP-NORTE', lat: GPS.latitude + 0.0003, lng: GPS.longitude }; // 33 m

test.beforeAll(async () => {
  world = await setUpWorld({
    fluxos: 'ip',
    pontos: {
      pontosIP: [SUDOESTE, LESTE, NORTE].map(({ id, lat, lng }) => ({
        coordenadas: [lat, lng],
        idConcessionaria: id,
        idCircuito: 'C-1',
        quantidadeCompartilhamento: 0,
      })),
    },
  });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

test('Próximo ponto leads to the nearest point still to collect, and the search opens one offline', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const wizard = new WizardPage(page);
  const proximo = new ProximoPontoPanel(page);

  await startOfflineDay(page, context, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  const menu = await openProjetoMenu(page, world.projetoNome);
  await menu.getByRole('link', { name: 'Uso Mútuo / IP' }).click();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await expect(page.getByTestId('ponto-escolhido')).toContainText('GPS com precisão de 6 m');

  // The nearest of the three, 33 m north of the fix, marked and in the middle of the map
  await proximo.botao.click();
  await expect(proximo.painel).toContainText(NORTE.id);
  await expect(proximo.rumo).toHaveText('33 m, direção norte');
  await expect(proximo.marcado).toHaveCount(1);
  await proximo.expectCentred();
  await expectAccessible(page, 'ip mapa com o próximo ponto');
  await screenshot(page, 'tecnico-proximo-ponto');

  // Walking 50 m east: the same point is now 60 m to the north-west; pressed again, the east one is nearest
  await context.setGeolocation({ latitude: GPS.latitude, longitude: GPS.longitude + 0.0005, accuracy: 5 });
  await expect(proximo.rumo).toHaveText('60 m, direção noroeste');
  await expect(proximo.painel).toContainText(NORTE.id);
  await proximo.botao.click();
  await expect(proximo.painel).toContainText(LESTE.id);
  await expect(proximo.rumo).toHaveText('10 m, direção leste');
  await proximo.expectCentred();

  // Opened as a tap on its marker opens it, collected, and back on the map
  await proximo.abrir.click();
  await expect(wizard.step('Passo 2 de 2: Dados do ponto')).toBeVisible();
  await expect(page.getByLabel('ID da concessionária')).toHaveValue(LESTE.id);
  await page.getByRole('checkbox', { name: 'Possui IP', exact: true }).check();
  await wizard.gravar.click();
  await expect(page.getByText('Ponto gravado no aparelho.')).toBeVisible();
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await expect(page.locator('path.mapa-ip.mapa-coletado')).toHaveCount(1);

  // The collected point is no longer a candidate: the north one is next, 60 m away
  await expect(proximo.painel).toHaveCount(0);
  await proximo.botao.click();
  await expect(proximo.painel).toContainText(NORTE.id);
  await expect(proximo.rumo).toHaveText('60 m, direção noroeste');

  // The search by idConcessionaria, with no network: the points are on the device
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await proximo.busca.fill('ip-sud');
  await expect(proximo.encontrados.getByRole('button')).toHaveCount(1);
  const sudoeste = proximo.encontrados.getByRole('button', { name: new RegExp(SUDOESTE.id) });
  await expect(sudoeste).toContainText('A coletar — 181 m');
  await proximo.busca.fill('IP-LESTE');
  await expect(proximo.encontrados.getByRole('button', { name: new RegExp(LESTE.id) })).toContainText(
    'Coletado',
  );
  await proximo.busca.fill('nada-disso');
  await expect(page.getByText('Nenhum ponto encontrado com esse identificador.')).toBeVisible();
  await proximo.busca.fill('ip-sud');
  await expectAccessible(page, 'ip mapa com a busca');
  await screenshot(page, 'tecnico-proximo-ponto-busca');
  await sudoeste.click();
  await expect(wizard.step('Passo 2 de 2: Dados do ponto')).toBeVisible();
  await expect(page.getByLabel('ID da concessionária')).toHaveValue(SUDOESTE.id);
});
