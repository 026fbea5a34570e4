// The photo stamp (issue 26): 'Compactar Imagens' burns a band into each photo with when (São Paulo's clock), where
// (with the GPS accuracy), who, the project and the flow; the server and the back office get the stamped photo.
// The band on the server's photo is compared, pixel by pixel, with the one the app's own drawing code renders
// from the server's record, and with one rendered for another moment, which must not match.
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { compareBand, type StampRecord } from '../support/carimbo';
import { acceptDialogs, openProjetoMenu, signInSynced, WizardPage } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { putPendingUnidades } from '../support/fault-helpers';
import { screenshot } from '../support/screens';

const PORTRAIT_TURNED = path.resolve(
  import.meta.dirname,
  '../../../shared/realworld/jpg/orientation__portrait_6.jpg',
);

/**
 * The band drawn for the right record: JPEG at quality 0.7 blurs the text's edges by about 5–6 (of 255) in the
 * worst 16-px tile; a tile with another digit in it differs by 14 to 21 (measured on this photo, 15-px text).
 */
const SAME_BAND = 10;
const OTHER_BAND = 12;
/** Another day, hour, minute and second: every figure of the time differs. */
const OTRO_MOMENTO = ((24 + 1) * 60 + 1) * 60_000 + 1_000;

test.use(TECHNICIAN_PHONE);

interface ServerUnidade {
  _id: string;
  numero?: string;
  dataHora: number;
  coordenadas: { lat: number; lng: number };
  precisao?: number;
  fotos: string[];
}

async function serverUnidade(world: CollectWorld, numero: string): Promise<ServerUnidade> {
  const response = await world.admin.get(`/api/unidade/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok()).toBe(true);
  const found = ((await response.json()) as ServerUnidade[]).find((unidade) => unidade.numero === numero);
  if (!found) throw new Error(`unit nº ${numero} not on the server`);
  return found;
}

/** The technician's name as the signed-in session carries it (what the stamp says). */
function sessionNome(page: Page): Promise<string> {
  return page.evaluate(
    () => (JSON.parse(localStorage.getItem('novus.session') ?? '{}') as { nome: string }).nome,
  );
}

/** 'DD/MM/YYYY HH:mm:ss' in São Paulo, written here apart from the app's code. */
function saoPaulo(instante: number): string {
  const text = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(instante);
  return text.replace(',', '');
}

test.describe('stamp on', () => {
  let world: CollectWorld;
  test.beforeAll(async () => {
    world = await setUpWorld({ fluxos: 'hc' });
  });
  test.afterAll(async () => world.admin.dispose());

  test('a unit’s photo, taken turned by the camera, reaches the server upright with the record’s stamp', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    acceptDialogs(page);
    const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });

    const menu = await openProjetoMenu(page, world.projetoNome);
    await menu.getByRole('link', { name: 'Unidade' }).click();
    await page.getByRole('button', { name: 'SDU (casa)' }).click();
    const wizard = new WizardPage(page);
    await wizard.tapMap();
    await wizard.gravarCoordenadas.click();
    await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
    await page.getByRole('textbox', { name: 'Número', exact: true }).fill('501');
    await page.getByLabel('Foto 1', { exact: true }).setInputFiles(PORTRAIT_TURNED);
    await expect(page.getByRole('img', { name: 'Miniatura da Foto 1' })).toBeVisible();
    await wizard.gravar.click();
    await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();

    await page.goto('/');
    await home.compactar.click();
    await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
    await home.sync();
    await home.expectSynced();

    const unidade = await serverUnidade(world, '501');
    const [url] = unidade.fotos;
    if (!url) throw new Error('the unit has no photo on the server');
    const photo = (await (await world.admin.get(url)).body()).toString('base64');
    const stamp: StampRecord = {
      dataHora: unidade.dataHora,
      coordenadas: unidade.coordenadas,
      ...(unidade.precisao === undefined ? {} : { precisao: unidade.precisao }),
      tecnico: await sessionNome(page),
      projeto: world.projetoNome,
      fluxo: 'Unidade',
    };
    const band = await compareBand(page.context(), photo, [
      stamp,
      { ...stamp, dataHora: stamp.dataHora + OTRO_MOMENTO },
    ]);

    // The lines say the record's time in São Paulo, its position, the technician, the project and the flow.
    expect(band.linhas[0]?.startsWith(saoPaulo(unidade.dataHora))).toBe(true);
    expect(band.linhas[0]).toContain(`Lat ${unidade.coordenadas.lat.toFixed(6)}`);
    expect(band.linhas[1]).toBe(`${stamp.tecnico} · ${world.projetoNome} · Unidade`);
    // Upright (the camera stored it turned a quarter), and the band at the foot of the upright picture.
    expect(band.height).toBeGreaterThan(band.width);
    expect(band.bandMean).toBeLessThan(80);
    expect(band.worstTile[0], 'the band drawn from the record').toBeLessThan(SAME_BAND);
    expect(band.worstTile[1], 'a band drawn for another moment').toBeGreaterThan(OTHER_BAND);
    expect(band.worstTile[1]).toBeGreaterThan(2 * (band.worstTile[0] ?? 0));

    // As the phone shows the photo at full width: the band legible (looked at in the screenshot).
    await page.setContent(
      `<!doctype html><html lang="pt-BR"><head><title>Foto carimbada</title></head><body style="margin:0"><main>` +
        `<h1>Foto 1 da unidade 501</h1><img alt="Foto 1 da unidade 501" style="width:100%"` +
        ` src="data:image/jpeg;base64,${photo}"></main></body></html>`,
    );
    await expect(page.getByRole('img', { name: 'Foto 1 da unidade 501' })).toBeVisible();
    await expectAccessible(page, 'foto carimbada na largura do celular');
    await screenshot(page, 'tecnico-foto-carimbada');
  });
});

test.describe('stamp off', () => {
  let world: CollectWorld;
  test.beforeAll(async () => {
    world = await setUpWorld({ fluxos: 'hc', carimboFotos: false });
  });
  test.afterAll(async () => world.admin.dispose());

  test('a project that turned the stamp off gets its photos without a band', async ({ page }) => {
    test.setTimeout(120_000);
    acceptDialogs(page);
    const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
    await putPendingUnidades(page, world.projetoId, [{ numero: '601', fotos: ['sem carimbo'] }]);
    await page.reload();
    await home.compactar.click();
    await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
    await home.sync();
    await home.expectSynced();

    const unidade = await serverUnidade(world, '601');
    const [url] = unidade.fotos;
    if (!url) throw new Error('the unit has no photo on the server');
    const photo = (await (await world.admin.get(url)).body()).toString('base64');
    const band = await compareBand(page.context(), photo, [
      {
        dataHora: unidade.dataHora,
        coordenadas: unidade.coordenadas,
        tecnico: await sessionNome(page),
        projeto: world.projetoNome,
        fluxo: 'Unidade',
      },
    ]);
    expect(band.bandMean).toBeGreaterThan(80);
    expect(band.worstTile[0]).toBeGreaterThan(OTHER_BAND);
  });
});
