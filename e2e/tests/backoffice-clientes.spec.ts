import { expect, test } from '@playwright/test';
import { createCliente, createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import { ClienteFormPage, ClienteListPage } from '../support/cliente-pages';
import { ADMIN } from '../support/env';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';

test.use({ viewport: DESKTOP });

test.beforeEach(async ({ page }) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  await expect(page).toHaveURL('/backoffice');
});

test('the back office shows the bar, the greeting and the administrador menu', async ({ page }) => {
  const shell = new BackofficeShell(page);
  await expect(page.getByText(`Olá, ${ADMIN.nome}`)).toBeVisible();
  for (const label of ['Home', 'Clientes', 'Projetos', 'Usuarios'])
    await expect(shell.menuLink(label)).toBeVisible();
  await expect(shell.menuLink('Extrator')).toHaveCount(0);
  await expectAccessible(page, 'back-office home');
  await screenshot(page, 'backoffice-home');

  await shell.menuLink('Projetos').click();
  await expect(page).toHaveURL('/backoffice/projeto');
  await expect(page.getByRole('heading', { name: 'Lista de Projetos' })).toBeVisible();

  await shell.signOut();
  await expect(page).toHaveURL('/login?target=backoffice');
});

test('a supervisor sees Home, Extrator and Supervisao only', async ({ page }) => {
  const clienteId = await createCliente(page.request, unique('Cliente do supervisor'));
  const supervisor = {
    login: unique('sup').replace(' ', '-'),
    password: 'supervisor-e2e-senha',
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente: clienteId,
  };
  await createUser(page.request, supervisor);
  const shell = new BackofficeShell(page);
  await shell.signOut();
  await expect(page).toHaveURL('/login?target=backoffice');
  await new LoginPage(page).signIn(supervisor.login, supervisor.password);
  await expect(page).toHaveURL('/backoffice');
  await expect(page.getByText('Olá, Sara Lima')).toBeVisible();
  await expect(shell.nav.getByRole('link')).toHaveText([
    'Home',
    'Extrator',
    'Relatórios',
    'Supervisao',
    'Revisão',
  ]);

  await shell.menuLink('Supervisao').click();
  await expect(page).toHaveURL('/backoffice/supervisor');
  await expect(page.getByRole('heading', { name: 'Supervisão de Projetos' })).toBeVisible();
  await expectAccessible(page, 'supervisor placeholder');
  await screenshot(page, 'backoffice-supervisor');
});

test('create, edit and delete a client with the exact messages', async ({ page }) => {
  const list = new ClienteListPage(page);
  const form = new ClienteFormPage(page);
  const nome = unique('Cliente E2E');
  const renamed = `${nome} alterado`;

  await new BackofficeShell(page).menuLink('Clientes').click();
  await expect(list.heading).toBeVisible();
  await expectAccessible(page, 'cliente list');

  await list.novo.click();
  await expect(page).toHaveURL('/backoffice/cliente/add');
  await expect(form.heading('Adicionar Cliente')).toBeVisible();
  await expectAccessible(page, 'cliente add');
  await form.save(nome);
  await expect(form.message('Cliente adicionado com sucesso.')).toBeVisible();
  await screenshot(page, 'backoffice-cliente-add');

  await form.save(nome);
  await expect(form.message('Já existe um cliente com esse nome.')).toBeVisible();
  await expect(form.message('Cliente adicionado com sucesso.')).toHaveCount(0);

  await list.goto();
  await expect(list.row(nome)).toHaveCount(1);
  await screenshot(page, 'backoffice-cliente-list');

  await list.edit(nome);
  await expect(form.heading('Alterar Cliente')).toBeVisible();
  await expect(form.nome).toHaveValue(nome);
  await expectAccessible(page, 'cliente edit');
  await form.save(renamed);
  await expect(form.message('Cliente alterado com sucesso.')).toBeVisible();
  await screenshot(page, 'backoffice-cliente-edit');

  await list.goto();
  await list.askDelete(renamed);
  await expectAccessible(page, 'cliente delete dialog');
  await screenshot(page, 'backoffice-cliente-dialog');
  await list.dialog.getByRole('button', { name: 'Não' }).click();
  await expect(list.dialog).toBeHidden();
  await expect(list.row(renamed)).toHaveCount(1);
  await expect(list.message('Cliente excluído com sucesso')).toHaveCount(0);

  await list.askDelete(renamed);
  await list.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(list.message('Cliente excluído com sucesso')).toBeVisible();
  await expect(list.row(renamed)).toHaveCount(0);
});

test('a client in use cannot be deleted and no success is shown', async ({ page }) => {
  const nome = unique('Cliente em uso');
  const clienteId = await createCliente(page.request, nome);
  await createUser(page.request, {
    login: unique('sup').replace(' ', '-'),
    password: 'supervisor-e2e-senha',
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente: clienteId,
  });

  const list = new ClienteListPage(page);
  await list.goto();
  await list.askDelete(nome);
  await list.dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: /^Cliente em uso por projetos ou usuários/ }),
  ).toBeVisible();
  await expect(list.message('Cliente excluído com sucesso')).toHaveCount(0);
  await expect(list.row(nome)).toHaveCount(1);
});

test('an empty name is refused in the form', async ({ page }) => {
  const form = new ClienteFormPage(page);
  await page.goto('/backoffice/cliente/add');
  await form.gravar.click();
  await expect(page.getByText('O nome do cliente é obrigatório.')).toBeVisible();
});

test('an expired server session in the back office sends the user to log in', async ({ page, context }) => {
  await context.clearCookies();
  await page.goto('/backoffice/cliente');
  await expect(page).toHaveURL('/login?target=backoffice');
});

test('the back-office home also notices a session the server no longer accepts', async ({
  page,
  context,
}) => {
  await context.clearCookies();
  await page.goto('/backoffice');
  await expect(page).toHaveURL('/login?target=backoffice');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
});
