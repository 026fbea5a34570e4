// The phone as it really is (issue 25): two tabs of the app at once, an old tab blocking the database's upgrade, a
// newer tab taking the database over, and the database connection lost under the app. Every case ends with each
// record on the server once and its photos byte for byte.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, fillUnidade, signInSynced, TechnicianHome } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { BASE_URL } from '../support/env';
import { deviceUnidades, expectOnServerOnce, putPendingUnidades } from '../support/fault-helpers';
import { LoginPage } from '../support/login-page';
import { screenshot } from '../support/screens';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

const credentials = () => ({ login: world.tecnico.login, password: TECNICO_PASSWORD });

const TEXTS = {
  bloqueado:
    'O Novus foi atualizado, mas outra aba ou janela do Novus ainda usa a versão anterior. Feche as outras abas do Novus para continuar; nenhum dado foi perdido.',
  substituido:
    'O Novus foi atualizado em outra aba. Recarregue esta página para usar a nova versão; os registros gravados estão no aparelho.',
  outraAba: /^Sincronização em andamento em outra aba do Novus/,
} as const;

/** Counts the record uploads (POSTs of units) a page sends. */
function countUploads(page: Page): { count: number } {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/unidade\b/.test(new URL(request.url()).pathname))
      counter.count += 1;
  });
  return counter;
}

/** Compresses on the home and waits for the end. */
async function compress(home: TechnicianHome): Promise<void> {
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
}

test('two tabs press Sincronizar at once: one sync, both end with its status; a unit saved in one shows in the other', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  acceptDialogs(page);
  const homeA = await signInSynced(page, credentials());
  const numeros = Array.from({ length: 30 }, (_, index) => String(5001 + index));
  await putPendingUnidades(page, world.projetoId, numeros);
  const held = await deviceUnidades(page, numeros);
  expect(held.flatMap((unidade) => unidade.hashes)).toHaveLength(60);

  const other = await context.newPage();
  acceptDialogs(other);
  const homeB = new TechnicianHome(other);
  await other.goto('/');
  await page.reload();
  await expect(homeA.pendentes('Unidades', 30)).toBeVisible();
  await expect(homeB.pendentes('Unidades', 30)).toBeVisible();

  const uploadsA = countUploads(page);
  const uploadsB = countUploads(other);
  await Promise.all([homeA.sync(), homeB.sync()]);
  // One of them works; the other says a sync runs elsewhere (seen here on whichever lost the race).
  let follower: Page | undefined;
  await expect
    .poll(
      async () => {
        for (const tab of [page, other])
          if ((await tab.getByText(TEXTS.outraAba).count()) > 0) follower = tab;
        return follower !== undefined;
      },
      { intervals: [50] },
    )
    .toBe(true);
  if (follower) await screenshot(follower, 'tecnico-sincronizacao-outra-aba');
  await homeA.expectSynced();
  await homeB.expectSynced();
  await expect(homeA.pendentes('Unidades', 0)).toBeVisible();
  await expect(homeB.pendentes('Unidades', 0)).toBeVisible();
  await expectAccessible(other, 'home depois da sincronização de outra aba');
  // Every record sent once: one sync ran, not two.
  expect(uploadsA.count + uploadsB.count).toBe(30);
  expect(Math.min(uploadsA.count, uploadsB.count)).toBe(0);
  await expectOnServerOnce(world.admin, world.projetoNome, held);

  // A unit saved in page A shows in page B's pending list, without a reload, within 2 s.
  await other.goto('/levantamento');
  await expect(other.getByText('Não há dados a serem exibidos')).toBeVisible();
  const wizard = await fillUnidade(page, world.projetoId, '5099', 2);
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
  const list = other.getByRole('list', { name: 'Registros pendentes' });
  await expect(list.getByRole('listitem')).toHaveCount(1, { timeout: 2_000 });
  await expectAccessible(other, 'levantamento com a unidade de outra aba');
  // And on page B's home banner.
  await other.goto('/');
  await expect(homeB.pendentes('Unidades', 1)).toBeVisible();

  const saved = await deviceUnidades(page, ['5099']);
  await page.goto('/');
  await compress(homeA);
  const compressed = await deviceUnidades(page, ['5099']);
  expect(compressed.map(({ id }) => id)).toEqual(saved.map(({ id }) => id));
  await homeA.sync();
  await homeA.expectSynced();
  await expect(homeB.pendentes('Unidades', 0)).toBeVisible({ timeout: 2_000 });
  await expectOnServerOnce(world.admin, world.projetoNome, compressed);
});

/** A new context of the phone, with no database of the app yet. */
async function freshPhone(browser: Browser) {
  const context = await browser.newContext({
    ...TECHNICIAN_PHONE,
    baseURL: BASE_URL,
    locale: 'pt-BR',
    reducedMotion: 'reduce',
  });
  return { context, page: await context.newPage() };
}

/** An old tab: it holds the database open at `version` and never answers a request to let go. */
async function holdDatabase(page: Page, version: number): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate(
    (version) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('Novus', version);
        request.onsuccess = () => {
          (window as unknown as { antiga: IDBDatabase }).antiga = request.result;
          resolve();
        };
        request.onerror = () => reject(request.error);
      }),
    version,
  );
}

test('an old tab holds the database open: the new version says to close it, then upgrades and works', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page: old } = await freshPhone(browser);
  try {
    await holdDatabase(old, 20);
    const page = await context.newPage();
    acceptDialogs(page);
    await new LoginPage(page).goto();
    await new LoginPage(page).signIn(world.tecnico.login, TECNICO_PASSWORD);
    const notice = page.getByTestId('aviso-banco-local');
    await expect(notice).toHaveText(TEXTS.bloqueado);
    await expect(page.getByTestId('db-version')).toHaveText('Banco de dados local: versão …');
    await expectAccessible(page, 'home com o banco bloqueado por outra aba');
    await screenshot(page, 'tecnico-banco-bloqueado');

    await old.close();
    await expect(notice).toHaveCount(0);
    await expect(page.getByTestId('db-version')).toHaveText('Banco de dados local: versão 21');
    // The upgraded database works: a sync brings the project, a unit put on the phone goes up once.
    const home = new TechnicianHome(page);
    await home.sync();
    await home.expectSynced();
    await putPendingUnidades(page, world.projetoId, ['6001']);
    const held = await deviceUnidades(page, ['6001']);
    await page.reload();
    await expect(home.pendentes('Unidades', 1)).toBeVisible();
    await home.sync();
    await home.expectSynced();
    await expectOnServerOnce(world.admin, world.projetoNome, held);
  } finally {
    await context.close();
  }
});

test('a newer version opened in another tab: this tab lets the database go, says so, and goes on after a reload', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { context, page } = await freshPhone(browser);
  try {
    acceptDialogs(page);
    const home = await signInSynced(page, credentials());
    await expect(page.getByTestId('db-version')).toHaveText('Banco de dados local: versão 21');
    await putPendingUnidades(page, world.projetoId, ['6101']);
    const held = await deviceUnidades(page, ['6101']);

    // The newer version's upgrade is not blocked by this tab: it closes its connection when asked.
    const newer = await context.newPage();
    await newer.goto('/api/health');
    const upgrade = await newer.evaluate(
      () =>
        new Promise<{ version: number; blocked: boolean }>((resolve, reject) => {
          let blocked = false;
          const request = indexedDB.open('Novus', 22);
          request.onblocked = () => {
            blocked = true;
          };
          request.onsuccess = () => {
            const { version } = request.result;
            request.result.close();
            resolve({ version, blocked });
          };
          request.onerror = () => reject(request.error);
        }),
    );
    expect(upgrade).toEqual({ version: 22, blocked: false });
    const notice = page.getByTestId('aviso-banco-local');
    await expect(notice).toContainText(TEXTS.substituido);
    await expectAccessible(page, 'home com o banco tomado por outra aba');
    await screenshot(page, 'tecnico-banco-substituido');

    const reloaded = page.waitForEvent('load');
    await notice.getByRole('button', { name: 'Recarregar' }).click();
    await reloaded;
    await expect(notice).toHaveCount(0);
    await expect(home.pendentes('Unidades', 1)).toBeVisible();
    await home.sync();
    await home.expectSynced();
    await expectOnServerOnce(world.admin, world.projetoNome, held);
  } finally {
    await context.close();
  }
});

test('the database connection lost under the app right before a save: the save succeeds after the reopen', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  // Every connection the app opens is kept where the test can close it, as iOS does when it drops the connection of
  // an app in the background ("Connection to Indexed Database server lost").
  await context.addInitScript(() => {
    const connections: IDBDatabase[] = [];
    (window as unknown as { conexoes: IDBDatabase[] }).conexoes = connections;
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
      const request = open.apply(this, args);
      request.addEventListener('success', () => connections.push(request.result));
      return request;
    };
  });
  acceptDialogs(page);
  const home = await signInSynced(page, credentials());
  const wizard = await fillUnidade(page, world.projetoId, '6201', 2);
  const closed = await page.evaluate(() => {
    const { conexoes } = window as unknown as { conexoes: IDBDatabase[] };
    for (const connection of conexoes) connection.close();
    return conexoes.length;
  });
  expect(closed).toBeGreaterThan(0);
  await wizard.gravar.click();
  await expect(page.getByText('Unidade gravada no aparelho.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: /erro|Erro|falh/ })).toHaveCount(0);

  await page.goto('/');
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  await compress(home);
  const held = await deviceUnidades(page, ['6201']);
  expect(held).toHaveLength(1);
  await home.sync();
  await home.expectSynced();
  await expectOnServerOnce(world.admin, world.projetoNome, held);
});

test('a photo whose bytes changed since capture is not sent: its record stays, the others go, the sync names it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  acceptDialogs(page);
  const home = await signInSynced(page, credentials());
  await putPendingUnidades(page, world.projetoId, ['6301', '6302']);
  // Each photo's SHA-256 as taken at capture: 6302's are its bytes'; 6301's first photo no longer matches its bytes,
  // as a browser that corrupted the stored photo would read it back.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('Novus');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const read = <T>(request: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const all = await read(
      db.transaction('unidade').objectStore('unidade').getAll() as IDBRequest<
        { id: string; fotos: (Blob | null)[]; dados: { numero?: string }; fotosSha256?: (string | null)[] }[]
      >,
    );
    const hex = async (blob: Blob) =>
      Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())), (byte) =>
        byte.toString(16).padStart(2, '0'),
      ).join('');
    for (const record of all) {
      const hashes = [];
      for (const foto of record.fotos) hashes.push(foto ? await hex(foto) : null);
      if (record.dados.numero === '6301') hashes[0] = '0'.repeat(64);
      record.fotosSha256 = hashes;
    }
    const tx = db.transaction('unidade', 'readwrite');
    for (const record of all) tx.objectStore('unidade').put(record);
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  });
  const [corrupt, intact] = [await deviceUnidades(page, ['6301']), await deviceUnidades(page, ['6302'])];
  await page.reload();
  await expect(home.pendentes('Unidades', 2)).toBeVisible();

  await home.sync();
  await expect(home.status).toContainText(
    /^Foto 1 de um registro de Unidades \(.+\) está corrompida no aparelho e não foi enviada/,
    { timeout: 30_000 },
  );
  await expect(home.sincronizar).toBeEnabled();
  await expectAccessible(page, 'home com foto corrompida');
  await expect(home.pendentes('Unidades', 1)).toBeVisible();
  expect(await deviceUnidades(page, ['6301'])).toEqual(corrupt);
  await expectOnServerOnce(world.admin, world.projetoNome, intact);
  const response = await world.admin.get(`/api/unidade/${encodeURIComponent(world.projetoNome)}`);
  const stored = (await response.json()) as { _id: string }[];
  expect(stored.filter((record) => record._id === corrupt[0]?.id)).toHaveLength(0);
});
