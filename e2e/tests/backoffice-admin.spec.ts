import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { createCliente, createProjeto, createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import { ClienteFormPage } from '../support/cliente-pages';
import { ADMIN } from '../support/env';
import { LoginPage } from '../support/login-page';
import { ProjetoFormPage, ProjetoListPage } from '../support/projeto-pages';
import { DESKTOP, screenshot } from '../support/screens';
import { UsuarioFormPage, UsuarioListPage } from '../support/usuario-pages';

const SAMPLES = path.resolve(import.meta.dirname, '../../docs/samples');
const KML = path.join(SAMPLES, 'zoneamento-curitiba.kml');
const PONTOS_IP = path.join(SAMPLES, 'pontos-ip.txt');
const PASSWORD = 'senha-e2e-1234';

test.use({ viewport: DESKTOP });

test.beforeEach(async ({ page }) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  await expect(page).toHaveURL('/backoffice');
});

/** Logs in on a fresh browser context (its own cookie) and hands back its page. */
async function signInElsewhere(browser: Browser, login: string) {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'pt-BR' });
  const page = await context.newPage();
  const loginPage = new LoginPage(page);
  await loginPage.goto();
  await loginPage.signIn(login, PASSWORD);
  await expect(page).not.toHaveURL(/\/login/);
  return { context, page };
}

test('an administrador sets up a client, a project with zones and IP points, and its users', async ({
  page,
  browser,
}) => {
  const shell = new BackofficeShell(page);
  const clienteNome = unique('Cliente Curitiba');
  const projetoNome = unique('Projeto Curitiba');
  const tecnico = { login: unique('tec').replace(' ', '-'), firstName: 'Tiago', lastName: 'Rocha' };
  const supervisor = { login: unique('sup').replace(' ', '-'), firstName: 'Sara', lastName: 'Lima' };

  // the client, through its form
  await shell.menuLink('Clientes').click();
  await page.getByRole('link', { name: 'Novo' }).click();
  await new ClienteFormPage(page).save(clienteNome);
  await expect(page.getByText('Cliente adicionado com sucesso.', { exact: true })).toBeVisible();

  // the project, with its KML and IP points previewed on the map
  const projetos = new ProjetoListPage(page);
  const form = new ProjetoFormPage(page);
  await shell.menuLink('Projetos').click();
  await expect(projetos.heading).toBeVisible();
  await expectAccessible(page, 'projeto list');
  await projetos.novo.click();
  await expect(page).toHaveURL('/backoffice/projeto/add');
  await expect(form.heading('Adicionar Projeto')).toBeVisible();
  for (const label of [
    'Unidade',
    'Poste',
    'Uso Mútuo / IP',
    'Árvore',
    'LPT',
    'Grupo A',
    'BDGD',
    'Fiscalização',
    'LPT Agiltec',
  ])
    await expect(form.fluxo(label)).not.toBeChecked();
  await expect(form.map).toBeVisible();
  await expect(form.zonas).toHaveCount(0);
  await expectAccessible(page, 'projeto add (empty)');

  await form.nome.fill(projetoNome);
  await form.choose(form.cliente, clienteNome);
  await form.choose(form.fuso, '22');
  await form.fluxo('Unidade').check();
  await form.fluxo('Uso Mútuo / IP').check();
  await expect(
    form.text('longitude;latitude;idConcessionaria;idCircuito;quantidadeCompartilhamento'),
  ).toBeVisible();
  await form.fileInput('Arquivo KML').setInputFiles(KML);
  await expect(form.message('3 zonas')).toBeVisible();
  await expect(form.text('zoneamento-curitiba.kml')).toBeVisible();
  await form.fileInput('Arquivo de pontos IP').setInputFiles(PONTOS_IP);
  await expect(form.message('4 pontos')).toBeVisible();
  await expect(form.zonas).toHaveCount(3);
  for (const zona of await form.zonas.all()) await expect(zona).toHaveAttribute('stroke', 'red');
  await expect(form.pontosIp).toHaveCount(4);
  for (const ponto of await form.pontosIp.all()) await expect(ponto).toHaveAttribute('stroke', 'green');
  await expectAccessible(page, 'projeto add with map');
  await screenshot(page, 'backoffice-projeto-add');

  await form.gravar.click();
  await expect(form.message('Projeto adicionado com sucesso.')).toBeVisible();
  await expect(form.nome).toHaveValue('');

  // the same name again: the server's message
  await form.nome.fill(projetoNome);
  await form.choose(form.cliente, clienteNome);
  await form.fluxo('Unidade').check();
  await form.gravar.click();
  await expect(form.message('Já existe um projeto com esse nome.')).toBeVisible();

  // edit fills every field and shows what is saved
  await projetos.goto();
  await projetos.edit(projetoNome);
  await expect(form.heading('Alterar Projeto')).toBeVisible();
  await expect(form.nome).toHaveValue(projetoNome);
  await expect(form.cliente).toHaveText(clienteNome);
  await expect(form.fuso).toHaveText('22');
  await expect(form.fluxo('Unidade')).toBeChecked();
  await expect(form.fluxo('Uso Mútuo / IP')).toBeChecked();
  await expect(form.fluxo('Poste')).not.toBeChecked();
  await expect(form.interpres).not.toBeChecked();
  await expect(form.text('3 zonas (já cadastradas)')).toBeVisible();
  await expect(form.text('4 pontos (já cadastrados)')).toBeVisible();
  await expect(form.zonas).toHaveCount(3);
  await expect(form.pontosIp).toHaveCount(4);
  await expectAccessible(page, 'projeto edit');
  await screenshot(page, 'backoffice-projeto-edit');

  // a bad KML is refused in the browser and the saved zones stay
  await form.fileInput('Arquivo KML').setInputFiles({
    name: 'quebrado.kml',
    mimeType: 'application/vnd.google-earth.kml+xml',
    buffer: Buffer.from('<kml><Document><Placemark><name>X</name></Placemark>'),
  });
  await expect(page.getByRole('alert')).toHaveText('quebrado.kml: O arquivo não é um XML/KML válido.');
  await expect(page.getByRole('button', { name: 'Remover quebrado.kml' })).toHaveCount(0);
  await expect(form.zonas).toHaveCount(3);
  await expect(form.text('3 zonas (já cadastradas)')).toBeVisible();
  await screenshot(page, 'backoffice-projeto-kml-error');
  await form.interpres.check();
  await form.gravar.click();
  await expect(form.message('Projeto alterado com sucesso.')).toBeVisible();
  await page.reload();
  await expect(form.interpres).toBeChecked();
  await expect(form.text('3 zonas (já cadastradas)')).toBeVisible();

  // a technician with two of the three zones, and a supervisor of the client
  const usuarios = new UsuarioListPage(page);
  const usuarioForm = new UsuarioFormPage(page);
  await shell.menuLink('Usuarios').click();
  await expect(usuarios.heading).toBeVisible();
  await usuarios.novo.click();
  await expect(usuarioForm.heading('Adicionar Usuário')).toBeVisible();
  await usuarioForm.checkbox('Técnico').check();
  await expect(page.getByText('Escolha um cliente para ver os projetos e as zonas.')).toBeVisible();
  await expectAccessible(page, 'usuario add');
  await usuarioForm.fill({
    ...tecnico,
    password: PASSWORD,
    cliente: clienteNome,
    perfis: [],
    zonas: [`${projetoNome} [Zona Centro]`, `${projetoNome} [Zona Batel]`],
  });
  await expect(usuarioForm.checkbox(`${projetoNome} [Zona Rebouças]`)).not.toBeChecked();
  await expectAccessible(page, 'usuario add with zones');
  await screenshot(page, 'backoffice-usuario-add');
  await usuarioForm.gravar.click();
  await expect(usuarioForm.message('Usuário adicionado com sucesso.')).toBeVisible();

  await usuarioForm.fill({ ...supervisor, password: PASSWORD, cliente: clienteNome, perfis: ['Supervisor'] });
  await usuarioForm.gravar.click();
  await expect(usuarioForm.message('Usuário adicionado com sucesso.')).toBeVisible();

  await usuarios.goto();
  const today = new Date().toLocaleDateString('pt-BR');
  await expect(usuarios.cell(tecnico.login, 'nome')).toHaveText('Tiago Rocha');
  await expect(usuarios.cell(tecnico.login, 'roles')).toHaveText('Técnico');
  await expect(usuarios.cell(tecnico.login, 'cliente')).toHaveText(clienteNome);
  await expect(usuarios.cell(tecnico.login, 'projetos')).toHaveText(projetoNome);
  await expect(usuarios.cell(tecnico.login, 'createdAt')).toHaveText(today);
  await expect(usuarios.cell(supervisor.login, 'roles')).toHaveText('Supervisor');
  await expect(usuarios.cell(supervisor.login, 'cliente')).toHaveText(clienteNome);
  await expectAccessible(page, 'usuario list');
  await screenshot(page, 'backoffice-usuario-list');

  await usuarios.edit(tecnico.login);
  await expect(usuarioForm.heading('Alterar Usuário')).toBeVisible();
  await expect(usuarioForm.login).toBeDisabled();
  await expect(usuarioForm.login).toHaveValue(tecnico.login);
  await expect(usuarioForm.checkbox(`${projetoNome} [Zona Centro]`)).toBeChecked();
  await expect(usuarioForm.checkbox(`${projetoNome} [Zona Batel]`)).toBeChecked();
  await expectAccessible(page, 'usuario edit');
  await usuarioForm.gravar.click();
  await expect(usuarioForm.message('Usuário alterado com sucesso.')).toBeVisible();

  // the supervisor's menu
  const asSupervisor = await signInElsewhere(browser, supervisor.login);
  await asSupervisor.page.goto('/backoffice');
  await expect(new BackofficeShell(asSupervisor.page).nav.getByRole('link')).toHaveText([
    'Home',
    'Extrator',
    'Relatórios',
    'Supervisao',
    'Revisão',
  ]);
  await asSupervisor.context.close();

  // the technician gets the project with exactly the two zones
  const asTecnico = await signInElsewhere(browser, tecnico.login);
  const response = await asTecnico.page.request.get('/api/projeto/getByUser');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { nome: string; zonas: { label: string }[] }[];
  expect(body.map((projeto) => projeto.nome)).toEqual([projetoNome]);
  expect(body[0]?.zonas.map((zona) => zona.label).sort()).toEqual(['Zona Batel', 'Zona Centro']);
  await asTecnico.context.close();
});

test('a project and a user are deleted through the dialog', async ({ page }) => {
  const clienteId = await createCliente(page.request, unique('Cliente apagar'));
  const projetoNome = unique('Projeto apagar');
  await createProjeto(page.request, {
    nome: projetoNome,
    cliente: clienteId,
    fluxos: 'hc',
    kml: fs.readFileSync(KML, 'utf8'),
  });
  const login = unique('apagar').replace(' ', '-');
  await createUser(page.request, {
    login,
    password: PASSWORD,
    firstName: 'Ana',
    lastName: 'Apagar',
    roles: ['interpretador'],
  });

  const projetos = new ProjetoListPage(page);
  await projetos.goto();
  await projetos.askDelete(projetoNome);
  await expectAccessible(page, 'projeto delete dialog');
  await projetos.dialog.getByRole('button', { name: 'Não' }).click();
  await expect(projetos.dialog).toBeHidden();
  await expect(projetos.row(projetoNome)).toHaveCount(1);
  await expect(projetos.message('Projeto excluído com sucesso')).toHaveCount(0);
  await projetos.askDelete(projetoNome);
  await projetos.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(projetos.message('Projeto excluído com sucesso')).toBeVisible();
  await expect(projetos.row(projetoNome)).toHaveCount(0);

  const usuarios = new UsuarioListPage(page);
  await usuarios.goto();
  await usuarios.askDelete(login);
  await screenshot(page, 'backoffice-usuario-dialog');
  await usuarios.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(usuarios.message('Usuário excluído com sucesso')).toBeVisible();
  await expect(usuarios.row(login)).toHaveCount(0);
});

test('the administrador cannot delete their own user and no success is shown', async ({ page }) => {
  const usuarios = new UsuarioListPage(page);
  await usuarios.goto();
  await usuarios.askDelete('admin');
  await usuarios.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Você não pode excluir o seu próprio usuário.' }),
  ).toBeVisible();
  await expect(usuarios.message('Usuário excluído com sucesso')).toHaveCount(0);
});

test('the user form shows the server validation errors joined on create', async ({ page }) => {
  const form = new UsuarioFormPage(page);
  await page.goto('/backoffice/usuario/add');
  await form.login.fill(unique('curto').replace(' ', '-'));
  await form.password.fill('curta');
  await form.passwordConfirmation.fill('curta');
  await form.gravar.click();
  await expect(page.getByRole('alert')).toContainText('A senha deve ter pelo menos 8 caracteres.');
  await expect(page.getByRole('alert')).toContainText(' | ');
  await expect(page.getByRole('alert')).toContainText('Escolha pelo menos um perfil.');
});

test('BDGD waits for a fuso; BDGD, fiscalização and LPT Agiltec files preview and save', async ({ page }) => {
  const clienteNome = unique('Cliente BDGD');
  await createCliente(page.request, clienteNome);
  const form = new ProjetoFormPage(page);
  await page.goto('/backoffice/projeto/add');
  await form.nome.fill(unique('Projeto BDGD'));
  await form.choose(form.cliente, clienteNome);
  await form.fluxo('BDGD').check();
  await expect(page.getByRole('button', { name: 'Escolher arquivo BDGD' })).toBeDisabled();
  await expect(form.text('Escolha o fuso do projeto antes de enviar o arquivo BDGD.')).toBeVisible();
  await form.choose(form.fuso, '22');
  await expect(page.getByRole('button', { name: 'Escolher arquivo BDGD' })).toBeEnabled();
  await form.fileInput('Arquivo BDGD').setInputFiles(path.join(SAMPLES, 'bdgd-fuso22.csv'));
  await form.fluxo('Fiscalização').check();
  await expect(
    form.text(
      /x;y;barramento;tipo;material;altura;carga;tipoEquipamento;placa;potencia;fases;medidor;faseConsumidor/,
    ),
  ).toBeVisible();
  await form
    .fileInput('Arquivo de fiscalização')
    .setInputFiles(path.join(SAMPLES, 'fiscalizacao-fuso22.csv'));
  await form.fluxo('LPT Agiltec').check();
  await form.fileInput('Arquivo LPT Agiltec').setInputFiles(path.join(SAMPLES, 'lpt-agiltec.csv'));
  const bdgd = await form.pontosBdgd.count();
  const fiscalizacao = await form.pontosFiscalizacao.count();
  expect(bdgd).toBeGreaterThan(0);
  expect(fiscalizacao).toBeGreaterThan(0);
  await expect(form.pontosBdgd.first()).toHaveAttribute('stroke', 'red');
  await expect(form.pontosFiscalizacao.first()).toHaveAttribute('stroke', 'blue');
  await expect(form.upload('BDGD').getByText(`${bdgd} pontos`, { exact: true })).toBeVisible();
  await expect(
    form.upload('Fiscalização').getByText(`${fiscalizacao} pontos`, { exact: true }),
  ).toBeVisible();
  await expect(form.upload('LPT Agiltec').getByText(/^\d+ pontos$/)).toBeVisible();
  await expectAccessible(page, 'projeto add with BDGD, fiscalização and LPT Agiltec');
  await screenshot(page, 'backoffice-projeto-bdgd');

  // unticking a flow clears its points
  await form.fluxo('Fiscalização').uncheck();
  await expect(form.pontosFiscalizacao).toHaveCount(0);
  await form.gravar.click();
  await expect(form.message('Projeto adicionado com sucesso.')).toBeVisible();

  // a narrow window stacks the map under the form
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto('/backoffice/projeto/add');
  await expect(form.map).toBeVisible();
  await screenshot(page, 'backoffice-projeto-narrow');
});

test('the administrador reads in Auditoria who changed what, filtered by user and period', async ({
  page,
}) => {
  const shell = new BackofficeShell(page);
  const nome = unique('Cliente auditado');
  const clienteId = await createCliente(page.request, nome);
  const renomeado = `${nome} renomeado`;
  const put = await page.request.put(`/api/cliente/${clienteId}`, { data: { nome: renomeado } });
  expect(put.status(), await put.text()).toBe(200);

  await shell.menuLink('Auditoria').click();
  await expect(page).toHaveURL('/backoffice/auditoria');
  await expect(page.getByRole('heading', { name: 'Auditoria' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Alterações registradas' });
  const rename = table.getByRole('row').filter({ hasText: `Nome: ${nome} → ${renomeado}` });
  await expect(rename).toHaveCount(1);
  await expect(rename).toContainText('Alteração');
  await expect(rename).toContainText(ADMIN.nome);
  await expect(
    table.getByRole('row').filter({ hasText: 'Criação' }).filter({ hasText: nome }).first(),
  ).toBeVisible();
  await expectAccessible(page, 'auditoria');
  await screenshot(page, 'backoffice-auditoria');

  // the administrador's own writes, then a period with none: the empty state; 'Limpar filtros' brings all back
  const usuario = page.getByRole('combobox', { name: 'Usuário' });
  await usuario.click();
  await page.getByRole('option', { name: `${ADMIN.nome} (${ADMIN.login})` }).click();
  await expect(usuario).toContainText(ADMIN.nome);
  await expect(rename).toHaveCount(1);
  await page.getByLabel('Data inicial').fill('2099-01-01');
  await expect(page.getByText('Nenhuma alteração registrada para esses filtros.')).toBeVisible();
  await expectAccessible(page, 'auditoria empty');
  await page.getByRole('button', { name: 'Limpar filtros' }).click();
  await expect(rename).toHaveCount(1);
});
