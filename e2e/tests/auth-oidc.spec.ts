// Sign-in with the company's account (OpenID Connect, issue 42) as a technician meets it on a phone: the login page's
// button named by OIDC_NOME, the provider's own pages (oidc-provider on 127.0.0.1, its development login form), back
// in Novus on the home; Log off, then the provider's logout offered and taken; and an account of the directory that
// Novus does not know, refused in Portuguese. The server is a spec's own (PGlite), started with the OIDC_ settings,
// so the run's shared server keeps its login page as every other journey expects it.
import { expect, test } from '@playwright/test';
import { createCliente, createUser, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { adminApi } from '../support/collect-setup';
import { OwnServer } from '../support/own-server';
import { PHONE } from '../support/screens';
import { OIDC_CLIENT, startTestProvider, type TestProvider } from '../../server/test/support/oidc-provider';

const BOTAO = 'Entrar com a conta Agiltec';

let server: OwnServer;
let provider: TestProvider;

test.use({ viewport: PHONE });

test.beforeAll(async () => {
  server = await OwnServer.create();
  provider = await startTestProvider(`${server.url}/`);
  await server.start('', {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_NOME: BOTAO,
    PUBLIC_URL: server.url,
  });
});

test.afterAll(async () => {
  await server?.dispose();
  await provider?.close();
});

test('a technician signs in with the company account, logs off Novus and the provider; an unknown account is refused', async ({
  page,
}) => {
  const admin = await adminApi(server.url);
  const cliente = await createCliente(admin, unique('Cliente OIDC'));
  const login = unique('tecnico.oidc').replace(' ', '-');
  await createUser(admin, {
    login,
    password: 'senha-que-nao-sera-usada-1',
    firstName: 'Olga',
    lastName: 'Diretório',
    roles: ['tecnico'],
    cliente,
  });
  await admin.dispose();
  // the directory knows the technician by the same login, in its own case
  provider.accounts.add(login.toUpperCase());
  provider.accounts.add('alguem.de.fora');

  await page.goto(`${server.url}/login`);
  const botao = page.getByRole('link', { name: BOTAO });
  await expect(botao).toBeVisible();
  await expectAccessible(page, 'login com a conta da empresa');
  await page.screenshot({ path: 'screenshots/login-conta-empresa.png' });

  // the provider's own login page
  await botao.click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login.toUpperCase());
  await page.locator('input[name="password"]').fill('senha-do-diretorio');
  await page.getByRole('button', { name: 'Sign-in' }).click();

  // back in Novus, on the technician's home, with the session a password login gives
  await expect(page.getByRole('heading', { name: 'Olá, Olga Diretório' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
  const cookies = await page.context().cookies(server.url);
  expect(cookies.find((cookie) => cookie.name === 'auth_token')?.httpOnly).toBe(true);

  // Log off: Novus's session ends, and the provider's logout is offered
  await page.getByRole('button', { name: 'Log off' }).click();
  await expect(page.getByText('Você saiu do Novus.')).toBeVisible();
  await expectAccessible(page, 'login depois de sair');
  await page.screenshot({ path: 'screenshots/login-sair-conta-empresa.png' });
  await page.getByRole('link', { name: 'Sair também da conta da empresa' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${server.url}/login`);
  await expect(page.getByRole('link', { name: BOTAO })).toBeVisible();
  expect((await page.request.get(`${server.url}/api/auth/me`)).status()).toBe(401);

  // an account of the directory with no Novus user: refused, in Portuguese, no session
  await page.getByRole('link', { name: BOTAO }).click();
  await page.locator('input[name="login"]').fill('alguem.de.fora');
  await page.locator('input[name="password"]').fill('senha-do-diretorio');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Usuário não cadastrado no Novus. Peça acesso ao administrador.',
  );
  await expectAccessible(page, 'entrada recusada');
  await page.screenshot({ path: 'screenshots/login-conta-empresa-recusada.png' });
  expect((await page.request.get(`${server.url}/api/auth/me`)).status()).toBe(401);
  await page.getByRole('link', { name: 'Voltar para o login' }).click();
  await expect(page.getByRole('link', { name: BOTAO })).toBeVisible();
});
