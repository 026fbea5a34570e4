// 'Revisão' (issue 24): a supervisor filters a project's records by a flag, opens one and sees its photos and its
// point, rejects it with a comment on a field, approves another with the keyboard and the rest in bulk after a
// confirmation that says how many; an externo of an Interpres project reads the same list with no action.
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import { SUPERVISOR_PASSWORD } from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { FLAG_PRECISAO, RevisaoScreen, type RevisaoWorld, setUpRevisaoWorld } from '../support/revisao-pages';
import { DESKTOP } from '../support/screens';
import { TECNICO_PASSWORD } from '../support/collect-setup';
import { apiAs } from '../support/extrator-pages';
import { enviar, isColour, lugar, realJpeg, SupervisorScreen, UNIDADE } from '../support/supervisor-pages';

test.use({ viewport: DESKTOP });

const SHOTS = '/tmp/rev-shots';
let world: RevisaoWorld;

let jpeg: Buffer;

test.beforeAll(async ({ browser }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const page = await browser.newPage();
  jpeg = await realJpeg(page);
  await page.close();
  world = await setUpRevisaoWorld(jpeg);
});
test.afterAll(async () => {
  await world.admin.dispose();
});

async function signIn(page: Page, login: string): Promise<BackofficeShell> {
  const loginPage = new LoginPage(page);
  await loginPage.goto('backoffice');
  await loginPage.signIn(login, SUPERVISOR_PASSWORD);
  await expect(page).toHaveURL('/backoffice');
  return new BackofficeShell(page);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

test('a supervisor reviews the flagged records: rejects one on a field, approves one by keyboard, the rest in bulk', async ({
  page,
}) => {
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Revisão').click();
  await expect(page).toHaveURL('/backoffice/revisao');
  const tela = new RevisaoScreen(page);
  await expect(tela.heading).toBeVisible();
  await tela.chooseProjeto(world.projetoNome);
  await expect(tela.rows()).toHaveCount(5);
  // the counts: five pending, four flagged by accuracy
  await expect(page.getByRole('button', { name: 'Pendente: 5' })).toBeVisible();
  await expect(page.getByRole('button', { name: `${FLAG_PRECISAO}: 4` })).toBeVisible();
  await expectAccessible(page, 'revisão list');
  await shot(page, '01-lista');

  await tela.choose(tela.filtro('Sinalização'), FLAG_PRECISAO);
  await expect(tela.rows()).toHaveCount(4);
  await expect(tela.row(world.ids.ok)).toHaveCount(0);
  await expect(page.getByText('4 registros · Página 1 de 1')).toBeVisible();

  // the first record: its fields, its photo (loaded), its point on the map, its flag with the measure
  await tela.row(world.ids.a).click();
  await expect(tela.registro.getByRole('heading', { name: 'Unidade' })).toBeVisible();
  await expect(tela.registro.getByText('321', { exact: true })).toBeVisible();
  await expect(tela.registro.getByText(`${FLAG_PRECISAO}: 40 m`)).toBeVisible();
  const foto = tela.registro.getByRole('img', { name: 'Foto 1 de 1 do registro' });
  await expect(foto).toBeVisible();
  await expect.poll(() => foto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const mapa = tela.registro.getByRole('region', { name: 'Mapa do registro' });
  await expect(mapa).toBeVisible();
  await expect(mapa.locator('path.revisao-ponto')).toHaveCount(1);
  await expectAccessible(page, 'revisão record');
  await shot(page, '02-registro');

  // rejected, with a comment on NUMERO
  await tela.button('Reprovar').click();
  await expect(tela.dialog.getByRole('heading', { name: 'Reprovar registro' })).toBeVisible();
  await tela.dialog.getByRole('button', { name: 'Reprovar' }).click();
  await expect(tela.dialog.getByText('Informe o motivo da reprovação.')).toBeVisible();
  await tela.dialog.getByRole('textbox', { name: 'Comentário' }).fill('Número da casa errado.');
  await tela.dialog.getByRole('checkbox', { name: 'NUMERO: 321' }).check();
  await tela.dialog.getByRole('textbox', { name: 'O que está errado em NUMERO' }).fill('A placa diz 231.');
  await expectAccessible(page, 'reprovar dialog');
  await shot(page, '03-reprovar');
  await tela.dialog.getByRole('button', { name: 'Reprovar' }).click();
  await expect(tela.dialog).toBeHidden();
  await expect(page.getByText('Registro reprovado.')).toBeVisible();
  await expect(tela.row(world.ids.a).getByText('Reprovado')).toBeVisible();
  await expect(tela.registro.getByText('Número da casa errado.').first()).toBeVisible();
  await expect(tela.registro.getByText('A placa diz 231.').first()).toBeVisible();
  await expect(tela.registro.getByRole('list', { name: 'Decisões' })).toContainText(
    'Reprovado por Sara Lima',
  );

  // newest first: the one above by keyboard (K), approved by keyboard (A)
  await page.keyboard.press('k');
  await expect(tela.row(world.ids.a)).toHaveAttribute('aria-selected', 'false');
  const selecionada = page.locator('tr[aria-selected="true"]');
  const id = await selecionada.getAttribute('data-registro');
  expect(id).not.toBeNull();
  expect(id).not.toBe(world.ids.a);
  await page.keyboard.press('a');
  await expect(page.getByText('Registro aprovado.')).toBeVisible();
  await expect(tela.row(id ?? '').getByText('Aprovado')).toBeVisible();
  await shot(page, '04-aprovado');

  // the rest still pending, in bulk: two
  await tela.choose(tela.filtro('Estado'), 'Pendente');
  await expect(tela.rows()).toHaveCount(2);
  await tela.button('Aprovar todos').click();
  await expect(tela.dialog.getByRole('heading', { name: 'Aprovar 2 registros?' })).toBeVisible();
  await expectAccessible(page, 'aprovar todos dialog');
  await shot(page, '05-aprovar-todos');
  await tela.dialog.getByRole('button', { name: 'Aprovar' }).click();
  await expect(page.getByText('2 registros aprovados.')).toBeVisible();
  await expect(page.getByText('Nenhum registro para estes filtros.')).toBeVisible();
  await tela.choose(tela.filtro('Estado'), 'Todos');
  await expect(tela.rows()).toHaveCount(4);
  await expect(tela.rows().getByText('Aprovado', { exact: true })).toHaveCount(3);
  await expect(tela.rows().getByText('Reprovado', { exact: true })).toHaveCount(1);

  // the server agrees
  const lista = await world.admin.get(`/api/revisao?projeto=${world.projetoId}&flag=precisao_baixa`);
  const body = (await lista.json()) as { registros: { id: string; revisao: { estado: string } }[] };
  expect(Object.fromEntries(body.registros.map((r) => [r.id, r.revisao.estado]))).toEqual({
    [world.ids.a]: 'reprovado',
    [world.ids.b]: 'aprovado',
    [world.ids.c]: 'aprovado',
    [world.ids.d]: 'aprovado',
  });
});

test('the supervisor map colours the reviewed points by state and shows only the flagged ones', async ({
  page,
}) => {
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Supervisao').click();
  const mapa = new SupervisorScreen(page);
  await mapa.chooseProjeto(world.projetoNome);
  await mapa.clusterizar.uncheck();
  await expect.poll(async () => (await mapa.drawn()).pontos).toBe(5);
  const colorir = page.getByRole('checkbox', { name: 'Colorir por revisão' });
  const somente = page.getByRole('checkbox', { name: 'Somente sinalizados' });
  await expect(colorir).not.toBeChecked();
  await expect(somente).not.toBeChecked();
  // by layer, as before: the rejected unit is the units' blue
  const rejeitada = await mapa.waitForPoint('hc', world.ids.a);
  expect(isColour(await mapa.canvasPixel(rejeitada.x, rejeitada.y), [0x15, 0x65, 0xc0])).toBe(true);

  await colorir.check();
  await expect(page.getByRole('list', { name: 'Cores da revisão' })).toContainText('Reprovado');
  const cor = async (id: string, fluxo: 'hc' | 'poste' = 'hc') => {
    const pixel = await mapa.waitForPoint(fluxo, id);
    return mapa.canvasPixel(pixel.x, pixel.y);
  };
  await expect.poll(async () => isColour(await cor(world.ids.a), [0xc6, 0x28, 0x28])).toBe(true);
  await expect.poll(async () => isColour(await cor(world.ids.b), [0x2e, 0x7d, 0x32])).toBe(true);
  await expect.poll(async () => isColour(await cor(world.ids.ok), [0x75, 0x75, 0x75])).toBe(true);

  await somente.check();
  await expect.poll(async () => (await mapa.drawn()).pontos).toBe(4);
  await mapa.clickAt(await mapa.waitForPoint('hc', world.ids.a));
  const revisao = page.getByTestId('supervisor-popup-revisao');
  await expect(revisao).toContainText('Revisão: Reprovado');
  await expect(revisao).toContainText(`${FLAG_PRECISAO}: 40 m`);
  await expectAccessible(page, 'supervisor map by review');
  await shot(page, '07-mapa-revisao');
});

test('an externo of the Interpres project reads the list and the record, with no action', async ({
  page,
}) => {
  const shell = await signIn(page, world.externo.login);
  await expect(shell.nav.getByRole('link')).toHaveText(['Home', 'Revisão']);
  await page.goto('/backoffice/cliente');
  await expect(page).toHaveURL('/backoffice');
  await shell.menuLink('Revisão').click();
  const tela = new RevisaoScreen(page);
  await tela.chooseProjeto(world.projetoNome);
  await expect(tela.rows()).toHaveCount(5);
  await expect(tela.button('Aprovar todos')).toHaveCount(0);
  await tela.row(world.ids.ok).click();
  await expect(tela.registro.getByRole('img', { name: 'Foto 1 de 1 do registro' })).toBeVisible();
  await expect(tela.button('Aprovar')).toHaveCount(0);
  await expect(tela.button('Reprovar')).toHaveCount(0);
  await page.keyboard.press('a');
  await expect(tela.row(world.ids.ok).getByText('Pendente')).toBeVisible();
  await expect(page.getByTestId('revisao-atalhos')).not.toContainText('Aprovar');
  await expectAccessible(page, 'revisão read-only');
  await shot(page, '06-externo');
});

test('a decision on a revision the technician has replaced meanwhile is refused, and the new one shown', async ({
  page,
}) => {
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Revisão').click();
  const tela = new RevisaoScreen(page);
  await tela.chooseProjeto(world.projetoNome);
  await tela.row(world.ids.a).click();
  await expect(tela.registro).toContainText('versão 1');
  await expect(tela.row(world.ids.a).getByText('Reprovado')).toBeVisible();

  // Paula sends the corrected unit while the supervisor looks at the rejected revision
  const paula = await apiAs(world.tecnico.login, TECNICO_PASSWORD);
  await enviar(
    paula,
    'unidade',
    world.projetoId,
    lugar(0, 0),
    { ...UNIDADE, id: world.ids.a, versao: '2', numero: '231', precisao: '4', dataHora: String(Date.now()) },
    [jpeg],
  );
  await paula.dispose();

  await tela.button('Aprovar').click();
  await expect(page.getByRole('alert').filter({ hasText: 'nova versão' })).toBeVisible();
  await expect(tela.registro).toContainText('versão 2');
  await expect(tela.row(world.ids.a).getByText('Pendente')).toBeVisible();
  await expect(tela.registro.getByText('231', { exact: true })).toBeVisible();
  await shot(page, '08-conflito');

  await tela.button('Aprovar').click();
  await expect(page.getByText('Registro aprovado.')).toBeVisible();
  await expect(tela.registro.getByRole('list', { name: 'Decisões' })).toContainText('(versão 2)');
  await expect(tela.registro.getByRole('list', { name: 'Versões' }).getByRole('listitem')).toHaveCount(2);
});

test("the administrador sets the project's quality limits", async ({ page }) => {
  const login = new LoginPage(page);
  await login.signInAsAdmin('backoffice');
  await new BackofficeShell(page).menuLink('Revisão').click();
  const tela = new RevisaoScreen(page);
  await tela.chooseProjeto(world.projetoNome);
  const limites = page.getByRole('region', { name: 'Limites de qualidade' });
  const precisao = limites.getByRole('textbox', { name: 'Precisão máxima (m)' });
  const duplicata = limites.getByRole('textbox', { name: 'Distância de duplicata (m)' });
  await expect(precisao).toHaveValue('15');
  await expect(duplicata).toHaveValue('2');
  await precisao.fill('8,5');
  await duplicata.fill('3');
  await limites.getByRole('button', { name: 'Gravar' }).click();
  await expect(limites.getByText('Limites de qualidade gravados.')).toBeVisible();
  await expect(precisao).toHaveValue('8,5');
  await expectAccessible(page, 'limites de qualidade');
  await shot(page, '09-limites');
  const gravados = await world.admin.get(`/api/projeto/${world.projetoId}/qualidade`);
  expect(await gravados.json()).toEqual({ precisaoMaxima: 8.5, distanciaDuplicata: 3 });
});
