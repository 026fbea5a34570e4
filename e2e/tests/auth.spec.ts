import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { createUser, unique } from '../support/api';
import { BackofficeShell } from '../support/backoffice-page';
import { ADMIN } from '../support/env';
import { HomePage } from '../support/home-page';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';

test.describe('logging in and the route guards', () => {
  test('a wrong password shows the server message, the right one lands on the home', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await expectAccessible(page, 'login');

    await login.signIn(ADMIN.login, 'senha-errada');
    await expect(login.error).toHaveText('Login ou senha inválidos.');
    await expectAccessible(page, 'login with error');

    await login.password.fill(ADMIN.password);
    await login.submit.click();
    await expect(page).toHaveURL('/');
    await new HomePage(page).expectLoaded(ADMIN.nome);
  });

  test('empty fields are refused before anything is sent', async ({ page }) => {
    const login = new LoginPage(page);
    await login.goto();
    await login.submit.click();
    await expect(page.getByText('Informe o login.')).toBeVisible();
    await expect(page.getByText('Informe a senha.')).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test('technician routes without a session go to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL('/login');
    await page.goto('/projetos');
    await expect(page).toHaveURL('/login');
  });

  test('the back office without a session goes to /login?target=backoffice and back after login', async ({
    page,
  }) => {
    await page.goto('/backoffice/cliente');
    await expect(page).toHaveURL('/login?target=backoffice');
    await new LoginPage(page).signIn(ADMIN.login, ADMIN.password);
    await expect(page).toHaveURL('/backoffice');
  });

  test('a logged-in visit to /login?target=backoffice goes straight to /backoffice', async ({ page }) => {
    await new LoginPage(page).signInAsAdmin();
    await page.goto('/login?target=backoffice');
    await expect(page).toHaveURL('/backoffice');
    await page.goto('/login');
    await expect(page).toHaveURL('/');
  });

  test('a tecnico has no entry to the back office', async ({ page }) => {
    await new LoginPage(page).signInAsAdmin();
    const tecnico = {
      login: unique('tec').replace(' ', '-'),
      password: 'tecnico-e2e-senha',
      firstName: 'Tiago',
      lastName: 'Campos',
      roles: ['tecnico'],
    };
    await createUser(page.request, tecnico);

    await page.goto('/backoffice');
    await new BackofficeShell(page).signOut();
    await expect(page).toHaveURL('/login?target=backoffice');

    await new LoginPage(page).signIn(tecnico.login, tecnico.password);
    await expect(page).toHaveURL('/backoffice');
    await expect(
      page.getByText('Usuario nao tem permissao para esse recurso', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Clientes' })).toHaveCount(0);
    await expectAccessible(page, 'back office without permission');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'backoffice-sem-permissao');

    await page.goto('/');
    await new HomePage(page).expectLoaded('Tiago Campos');
  });

  test('Log off forgets the session and returns to the login', async ({ page }) => {
    await new LoginPage(page).signInAsAdmin();
    const home = new HomePage(page);
    await home.logOff.click();
    await expect(page).toHaveURL('/login');
    await page.goto('/');
    await expect(page).toHaveURL('/login');
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
  });
});
