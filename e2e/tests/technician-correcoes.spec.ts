// Corrections sent back to the phone (issue 24): a technician collects a unit and syncs; the supervisor rejects it
// with a comment on 'numero'; the technician syncs, sees 'Correções', opens the record with the comment and the
// field highlighted, fixes the number offline, syncs; the supervisor sees revision 2, pendente, and approves it.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, openProjetoMenu, signInSynced, WizardPage } from '../support/collect-pages';
import { addPhoto } from '../support/collect-checks';
import {
  type CollectWorld,
  GPS,
  makeJpeg,
  setUpWorld,
  TECHNICIAN_PHONE,
  TECNICO_PASSWORD,
} from '../support/collect-setup';
import { CorrecaoRecord, CorrecoesList, decidir, revisaoList, shot } from '../support/correcoes-pages';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

const COMENTARIO = 'O número não confere com a fachada.';
const NO_CAMPO = 'Na foto a fachada diz 54.';

test('a rejected unit comes back to the phone, is fixed offline and returns as revision 2', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const dialogs = acceptDialogs(page);
  const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });

  // the unit, collected with a photo and synced
  await (await openProjetoMenu(page, world.projetoNome)).getByRole('link', { name: 'Unidade' }).click();
  const wizard = new WizardPage(page);
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill('45');
  await wizard.addPhotos(1, 'Unidade');
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
  await page.goto('/');
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(page.getByTestId('correcoes')).toHaveCount(0);

  // the supervisor rejects it, pointing at 'numero'
  const [enviada, ...outras] = await revisaoList(world.admin, world.projetoId);
  expect(outras).toHaveLength(0);
  expect(enviada).toMatchObject({ dados: { numero: '45' }, revisao: { estado: 'pendente', versao: 1 } });
  const id = enviada?.id ?? '';
  const fotoOriginal = await (await world.admin.get(enviada?.fotos[0] ?? '')).body();
  await decidir(world.admin, id, {
    estado: 'reprovado',
    comentario: COMENTARIO,
    campos: { numero: NO_CAMPO },
    versao: 1,
  });

  // the next sync brings it back
  await home.sync();
  await home.expectSynced();
  const banner = page.getByTestId('correcoes');
  await expect(banner).toContainText('Correções: 1 registro reprovado');
  await expectAccessible(page, 'home com correções');
  await shot(page, 'home-correcoes');

  await banner.getByRole('link', { name: 'Ver' }).click();
  const list = new CorrecoesList(page);
  await expect(list.heading()).toBeVisible();
  await expect(list.items).toHaveCount(1);
  await expect(list.items.first()).toContainText('Unidade SDU, nº 45');
  await expect(list.items.first()).toContainText(COMENTARIO);
  await expect(list.items.first()).toContainText('Administrador');
  await expectAccessible(page, 'correções');
  await shot(page, 'correcoes-lista');

  await list.items.first().click();
  await expect(page).toHaveURL(new RegExp(`/unidade/${id}$`));
  const record = new CorrecaoRecord(page);
  await expect(record.pedida).toContainText(`Correção pedida: ${COMENTARIO}`);
  const numero = record.field('Número');
  await expect(numero).toHaveValue('45');
  await expect(numero).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(NO_CAMPO)).toBeVisible();
  // the server's photo, in its slot
  await expect(page.getByRole('img', { name: 'Miniatura da Foto 1' })).toBeVisible();
  await expect(record.gravar).toBeEnabled();
  await expectAccessible(page, 'correção aberta');
  await shot(page, 'correcao-aberta');

  // fixed offline: after a reload without network, the comment, the highlight and the server's photo (fetched by
  // the sync) are all still there
  await context.setOffline(true);
  await page.reload();
  await expect(record.pedida).toContainText(`Correção pedida: ${COMENTARIO}`);
  await expect(numero).toHaveAttribute('aria-invalid', 'true');
  const miniatura = page.getByRole('img', { name: 'Miniatura da Foto 1' });
  await expect(miniatura).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => miniatura.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await numero.fill('54');
  await expect(numero).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(NO_CAMPO)).toHaveCount(0);
  // the server's photo stays in its slot, a second one is taken
  await page.getByLabel('Foto 2', { exact: true }).setInputFiles({
    name: 'camera-2.jpg',
    mimeType: 'image/jpeg',
    buffer: await makeJpeg(page, 'Fachada 54'),
  });
  await expect(page.getByRole('img', { name: 'Miniatura da Foto 2' })).toBeVisible();
  await shot(page, 'correcao-editada');
  await record.gravar.click();
  await expect(list.heading()).toBeVisible();
  await expect(list.items.first()).toContainText('Corrigido: aguardando sincronização');
  await expectAccessible(page, 'correções corrigida');
  await shot(page, 'correcoes-corrigida');
  // opened again, offline: saved, no longer pointed at, both photos in the gallery
  await list.items.first().click();
  await expect(
    page.getByText('Correção gravada no aparelho: será enviada na próxima sincronização.'),
  ).toBeVisible();
  await expect(numero).toHaveValue('54');
  await expect(numero).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('link', { name: 'Ver fotos' }).click();
  const galeria = page.getByRole('img', { name: /^Foto \d$/ });
  await expect(galeria).toHaveCount(2);
  for (const foto of await galeria.all()) {
    await expect.poll(() => foto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await expectAccessible(page, 'fotos da correção');
  await shot(page, 'correcao-fotos');
  await page.goto('/correcoes');
  await page.getByRole('link', { name: 'Voltar' }).click();
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await expect(page.getByTestId('correcoes')).toHaveCount(0);

  // the new photo is compressed as any other, still offline
  await home.sync();
  await expect.poll(() => dialogs.at(-1)).toBe('Nao e possivel sincronizar. Favor compactar imagens.');
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });

  await context.setOffline(false);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Unidades', 0)).toBeVisible();
  await expect(page.getByTestId('correcoes')).toHaveCount(0);
  await shot(page, 'home-depois');

  // the supervisor sees revision 2, pending review, with the new number and the kept photo; approves it
  const [corrigida, ...mais] = await revisaoList(world.admin, world.projetoId);
  expect(mais).toHaveLength(0);
  expect(corrigida).toMatchObject({
    id,
    dados: { numero: '54' },
    revisao: { estado: 'pendente', versao: 2 },
  });
  // the kept photo (named by its hash) and the new one
  expect(corrigida?.fotos).toHaveLength(2);
  expect(await (await world.admin.get(corrigida?.fotos[0] ?? '')).body()).toEqual(fotoOriginal);
  const aprovada = await decidir(world.admin, id, { estado: 'aprovado', versao: 2 });
  expect(aprovada.revisao).toMatchObject({ estado: 'aprovado', versao: 2 });
});

test.describe('a preloaded point', () => {
  let pontos: CollectWorld;

  test.beforeAll(async () => {
    pontos = await setUpWorld({
      fluxos: 'ip',
      pontos: {
        pontosIP: [
          {
            coordenadas: [GPS.latitude + 0.0001, GPS.longitude - 0.00015],
            idConcessionaria: 'IP-100',
            idCircuito: 'C-7',
            quantidadeCompartilhamento: 2,
          },
        ],
      },
    });
  });
  test.afterAll(async () => {
    await pontos.admin.dispose();
  });

  test('rejected after its collection, comes back the same way and is corrected as revision 2', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    acceptDialogs(page);
    const home = await signInSynced(page, { login: pontos.tecnico.login, password: TECNICO_PASSWORD });
    const menu = await openProjetoMenu(page, pontos.projetoNome);
    await menu.getByRole('link', { name: 'Uso Mútuo / IP' }).click();
    const wizard = new WizardPage(page);
    await page.locator('path.mapa-ip').click();
    await page.getByRole('checkbox', { name: 'Possui IP', exact: true }).check();
    await addPhoto(page, 'Foto 1', 'IP 1');
    await wizard.gravar.click();
    await expect(page.getByText('Ponto gravado no aparelho.')).toBeVisible();
    await page.goto('/');
    await home.compactar.click();
    await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
    await home.sync();
    await home.expectSynced();

    const [coletado] = await revisaoList(pontos.admin, pontos.projetoId);
    const id = coletado?.id ?? '';
    expect(coletado).toMatchObject({ dados: { idCircuito: 'C-7' }, revisao: { versao: 1 } });
    await decidir(pontos.admin, id, {
      estado: 'reprovado',
      comentario: 'Circuito errado.',
      campos: { idCircuito: 'A placa do poste diz C-9.' },
      versao: 1,
    });

    await home.sync();
    await home.expectSynced();
    await expect(page.getByTestId('correcoes')).toContainText('Correções: 1 registro reprovado');
    await page.getByTestId('correcoes').getByRole('link', { name: 'Ver' }).click();
    const list = new CorrecoesList(page);
    await expect(list.items.first()).toContainText('Circuito errado.');
    await list.items.first().click();
    const record = new CorrecaoRecord(page);
    await expect(record.pedida).toContainText('Correção pedida: Circuito errado.');
    const circuito = record.field('ID do circuito');
    await expect(circuito).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('A placa do poste diz C-9.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'Miniatura da Foto 1' })).toBeVisible();
    await expectAccessible(page, 'correção de ponto');
    await shot(page, 'correcao-ponto');
    await circuito.fill('C-9');
    await record.gravar.click();
    await expect(list.heading()).toBeVisible();
    await page.getByRole('link', { name: 'Voltar' }).click();
    await expect(home.pendentes('Uso Mútuo / IP', 1)).toBeVisible();
    await home.sync();
    await home.expectSynced();
    await expect(home.pendentes('Uso Mútuo / IP', 0)).toBeVisible();
    await expect(page.getByTestId('correcoes')).toHaveCount(0);

    const [corrigido] = await revisaoList(pontos.admin, pontos.projetoId);
    expect(corrigido).toMatchObject({
      id,
      dados: { idCircuito: 'C-9', idConcessionaria: 'IP-100' },
      revisao: { estado: 'pendente', versao: 2 },
    });
    expect(corrigido?.fotos).toHaveLength(1);
  });
});
