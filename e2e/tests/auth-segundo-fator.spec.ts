// 'Verificação em duas etapas' (issue 42), as a technician meets it on a phone: turned on from 'Minha conta' with the
// secret typed into the app (here otpauth, as an authenticator computes codes), the ten recovery codes shown once;
// then the password alone asks for the 'Código de verificação', a wrong code is refused in Portuguese, the right one
// opens the home. (The administrador's requirement changes every supervisor's login: it is tested on the server,
// server/test/segundo-fator.test.ts, not here where other journeys run beside this one.)
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { createCliente, createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { adminApi } from '../support/collect-setup';
import { BASE_URL } from '../support/env';
import { LoginPage } from '../support/login-page';
import { DESKTOP, PHONE } from '../support/screens';

const PASSWORD = 'duas-etapas-senha-1';

/** What the authenticator shows for `segredo`, `steps` periods of 30 s from now. */
const codeOf = (segredo: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(segredo), timestamp: Date.now() + steps * 30_000 });

test.use({ viewport: PHONE });

test('a technician turns on the second factor, logs in with the password and the code; an administrador resets it', async ({
  page,
  browser,
}) => {
  const admin = await adminApi();
  const cliente = await createCliente(admin, unique('Cliente Duas Etapas'));
  const login = unique('duas-etapas').replace(' ', '-');
  await createUser(admin, {
    login,
    password: PASSWORD,
    firstName: 'Dora',
    lastName: 'Duas Etapas',
    roles: ['tecnico'],
    cliente,
  });
  await admin.dispose();

  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(login, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Olá, Dora Duas Etapas' })).toBeVisible();
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Minha conta' }).click();
  await expect(page.getByRole('heading', { name: 'Verificação em duas etapas' })).toBeVisible();
  await expectAccessible(page, 'minha conta');

  await page.getByRole('button', { name: 'Ligar verificação em duas etapas' }).click();
  await expect(page.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible();
  const segredo = (await page.getByTestId('segredo').textContent())?.replace(/\s/g, '') ?? '';
  expect(segredo).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page, 'minha conta: QR code');
  await page.getByLabel('Código de verificação').fill(codeOf(segredo));
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Verificação em duas etapas ligada.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(
    10,
  );
  await expect(page.getByText('Ligada. Códigos de recuperação restantes: 10.')).toBeVisible();
  await page.screenshot({ path: 'screenshots/conta-segundo-fator.png' });

  // Another phone: the password alone opens the code's step, not the home.
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE });
  const other = await context.newPage();
  const loginPage = new LoginPage(other);
  await loginPage.goto();
  await loginPage.signIn(login, PASSWORD);
  const codigo = other.getByLabel('Código de verificação');
  await expect(codigo).toBeVisible();
  await expect(other).toHaveURL(/\/login/);
  await expectAccessible(other, 'login: código de verificação');
  await codigo.fill('000000');
  await other.getByRole('button', { name: 'Entrar' }).click();
  await expect(other.getByRole('alert')).toHaveText('Código de verificação inválido.');
  await expect(other).toHaveURL(/\/login/);
  // the code the app shows next (the confirmation took this one)
  await codigo.fill(codeOf(segredo, 1));
  await other.getByRole('button', { name: 'Entrar' }).click();
  await expect(other.getByRole('heading', { name: 'Olá, Dora Duas Etapas' })).toBeVisible();
  await context.close();

  // The phone is lost: an administrador resets the second factor from the user's form, and the password opens again.
  const lista = await adminApi();
  const usuarios = (await (await lista.get('/api/user')).json()) as { _id: string; login: string }[];
  await lista.dispose();
  const id = usuarios.find((usuario) => usuario.login === login)?._id ?? '';
  const office = await browser.newContext({ baseURL: BASE_URL, viewport: DESKTOP });
  const adminPage = await office.newPage();
  adminPage.on('dialog', (dialog) => void dialog.accept());
  await new LoginPage(adminPage).signInAsAdmin('backoffice');
  await adminPage.goto('/backoffice/usuario');
  await expect(
    adminPage.getByRole('switch', {
      name: 'Exigir verificação em duas etapas de administradores e supervisores',
    }),
  ).not.toBeChecked();
  await expectAccessible(adminPage, 'lista de usuários: verificação em duas etapas');
  await adminPage.goto(`/backoffice/usuario/${id}`);
  // the form says it is on, with the recovery codes left
  await expect(adminPage.getByText('Ligada. Códigos de recuperação restantes: 10.')).toBeVisible();
  await adminPage.getByRole('button', { name: 'Redefinir verificação em duas etapas' }).click();
  await expect(adminPage.getByText('Verificação em duas etapas redefinida.')).toBeVisible();
  await expect(adminPage.getByText('Desligada: este usuário entra só com a senha.')).toBeVisible();
  await expect(adminPage.getByRole('button', { name: 'Redefinir verificação em duas etapas' })).toHaveCount(
    0,
  );
  await expectAccessible(adminPage, 'usuário: verificação em duas etapas redefinida');
  await adminPage.screenshot({ path: 'screenshots/usuario-segundo-fator.png' });
  await office.close();

  const again = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE });
  const phone = await again.newPage();
  await new LoginPage(phone).goto();
  await new LoginPage(phone).signIn(login, PASSWORD);
  await expect(phone.getByRole('heading', { name: 'Olá, Dora Duas Etapas' })).toBeVisible();
  await again.close();
});
