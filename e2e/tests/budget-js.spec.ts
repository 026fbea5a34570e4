// What a first visit loads, as Lighthouse counts it (issue 41): every script the page fetches until the network is
// quiet, lazy chunks included, at their transfer size (brotli, as the server sends them), not only the entry's
// static graph that web/scripts/budget.mjs sums. The login page and the technician's home within the goal of 170 KB:
// the home reads its figures with IndexedDB itself (web/src/offline/local-reader.ts), and the device's code (Dexie,
// the sync, the registry, zod) comes with the first tap or screen that needs it.
import { type Browser, expect, test } from '@playwright/test';
import { createCliente, createUser, unique } from '../support/api';
import { adminApi } from '../support/collect-setup';
import { BASE_URL } from '../support/env';
import { LoginPage } from '../support/login-page';
import { PHONE } from '../support/screens';

const KB = 1024;
const LOGIN_BUDGET = 170 * KB;
/**
 * Issue 41's goal. Measured 246.1 KB while the home loaded the device's code, 164.9 KB once it read its figures with
 * IndexedDB itself (2026-11-28).
 */
const HOME_BUDGET = 170 * KB;

const PASSWORD = 'orcamento-e2e-senha';

/** The scripts a fresh window (no cache, no service worker yet) fetches for `path`, with their transfer sizes. */
async function scriptsOf(
  browser: Browser,
  path: string,
  storageState?: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>,
): Promise<{ total: number; files: string[] }> {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    viewport: PHONE,
    serviceWorkers: 'block',
    storageState,
  });
  const page = await context.newPage();
  const sizes: Promise<[string, number]>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    sizes.push(
      request
        .sizes()
        .then((size): [string, number] => [
          new URL(request.url()).pathname,
          size.responseBodySize + size.responseHeadersSize,
        ]),
    );
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  // what loads once the first screen is up (the home's figures) counts as Lighthouse counts it
  await page.waitForTimeout(2_000);
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(sizes);
  await context.close();
  return {
    total: files.reduce((sum, [, size]) => sum + size, 0),
    files: files.sort((a, b) => b[1] - a[1]).map(([file, size]) => `${(size / KB).toFixed(1)} KB ${file}`),
  };
}

test('the JavaScript of the login page and of the technician home stays within its budget', async ({
  browser,
}) => {
  const login = await scriptsOf(browser, '/login');
  test.info().annotations.push({ type: 'login (KB)', description: (login.total / KB).toFixed(1) });
  expect(login.total, `/login loads:\n${login.files.join('\n')}`).toBeLessThanOrEqual(LOGIN_BUDGET);
  // the device's code waits for 'Entrar' (web/src/app/device-boot.ts)
  expect(login.files.some((file) => /\/assets\/sync-[\w-]+\.js$/.test(file))).toBe(false);

  // A technician signed in, then the home opened afresh with that session.
  const admin = await adminApi();
  const cliente = await createCliente(admin, unique('Cliente Orçamento'));
  const tecnico = unique('orcamento').replace(' ', '-');
  await createUser(admin, {
    login: tecnico,
    password: PASSWORD,
    firstName: 'Olga',
    lastName: 'Orçamento',
    roles: ['tecnico'],
    cliente,
  });
  await admin.dispose();
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE, serviceWorkers: 'block' });
  const page = await context.newPage();
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(tecnico, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Olá, Olga Orçamento' })).toBeVisible();
  const session = await context.storageState();
  await context.close();

  const home = await scriptsOf(browser, '/', session);
  test.info().annotations.push({ type: 'home (KB)', description: (home.total / KB).toFixed(1) });
  expect(home.total, `/ loads:\n${home.files.join('\n')}`).toBeLessThanOrEqual(HOME_BUDGET);
  // nor on the home: it reads its figures without Dexie and the sync (web/src/technician/home-device.ts)
  expect(home.files.some((file) => /\/assets\/(sync|device)-[\w-]+\.js$/.test(file))).toBe(false);
});
