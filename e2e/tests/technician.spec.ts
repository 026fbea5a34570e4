import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { ADMIN } from '../support/env';
import { HomePage } from '../support/home-page';
import { LoginPage } from '../support/login-page';
import { PHONE, screenshot } from '../support/screens';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

test.describe('the technician on a phone', () => {
  test('the home shows the greeting, version 1.22.4, database 21 and storage', async ({ page }) => {
    await new LoginPage(page).goto();
    await screenshot(page, 'tecnico-login');
    await new LoginPage(page).signIn(ADMIN.login, ADMIN.password);
    const home = new HomePage(page);
    await home.expectLoaded(ADMIN.nome);
    await expect(home.storage).toHaveText(/^Armazenamento: \d+,\d{2} GB de \d+,\d{2} GB \(\d+(,\d)?%\)$/);
    await expect(page.getByRole('button', { name: 'Compactar Imagens' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Sincronizar' })).toBeEnabled();
    await expect(page.getByRole('link', { name: 'Levantamento' })).toBeVisible();
    // An administrador who logged in here finds the back office from the home.
    await expect(page.getByRole('link', { name: 'Back office' })).toHaveAttribute('href', '/backoffice');
    await expectAccessible(page, 'home');
    await screenshot(page, 'tecnico-home');

    await home.iniciar.click();
    await expect(page).toHaveURL('/projetos');
    await expect(page.getByRole('heading', { name: 'Escolha um projeto' })).toBeVisible();
    await expectAccessible(page, 'projetos');
    await screenshot(page, 'tecnico-projetos');
    await page.getByRole('link', { name: 'Sair' }).click();
    await expect(page).toHaveURL('/');
  });

  test('the home opens again with the network off', async ({ page, context }) => {
    await new LoginPage(page).signInAsAdmin();
    const home = new HomePage(page);
    await home.expectLoaded(ADMIN.nome);

    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await context.setOffline(true);
    await page.reload();
    await home.expectLoaded(ADMIN.nome);
    await page.getByRole('link', { name: 'Iniciar' }).click();
    await expect(page.getByRole('heading', { name: 'Escolha um projeto' })).toBeVisible();
    await screenshot(page, 'tecnico-offline-projetos');
    await context.setOffline(false);
  });

  test.describe('on a slow link', () => {
    // Without the service worker every script comes through the route below, as on a first visit.
    test.use({ serviceWorkers: 'block' });

    test("the login and the home show whole without the device's code (Dexie, the registry, zod); the next screen brings it", async ({
      page,
    }) => {
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const asked: string[] = [];
      await page.route(/\/assets\/device-[^/]*\.js$/, async (route) => {
        asked.push(route.request().url());
        await held;
        await route.continue();
      });

      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(ADMIN.login, ADMIN.password);
      const home = new HomePage(page);
      await expect(home.greeting(ADMIN.nome)).toBeVisible();
      await expect(home.iniciar).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sincronizar' })).toBeEnabled();
      await expect(home.storage).toHaveText(/^Armazenamento: \d+,\d{2} GB de/);
      await expect(home.version).toBeVisible();
      // read with IndexedDB itself (issue 41): no database on this new phone yet, the version it will have
      await expect(home.databaseVersion).toHaveText('Banco de dados local: versão 21');
      await expectAccessible(page, 'home-sem-banco');
      expect(asked).toEqual([]);

      await home.iniciar.click();
      await expect.poll(() => asked.length).toBe(1);
      release();
      await expect(page.getByRole('heading', { name: 'Escolha um projeto' })).toBeVisible();
    });
  });
});
