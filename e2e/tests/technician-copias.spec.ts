// The phones as the last backup (issue 39), the two edges a restored server does not show: a pole deleted on purpose
// in the back office ('Revisão') stays deleted when the phone that sent it (and still keeps its copy) syncs again, and the copies
// give way, oldest first, when the device runs short of space. The restore itself: technician-restauro.spec.ts.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import { acceptDialogs, signInSynced, type TechnicianHome } from '../support/collect-pages';
import { type CollectWorld, setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { ADMIN, BASE_URL } from '../support/env';
import { putPendingUnidades } from '../support/fault-helpers';
import { LoginPage } from '../support/login-page';
import { collectPoste } from '../support/poste-device';
import { DESKTOP, screenshot } from '../support/screens';
import { RevisaoScreen } from '../support/revisao-pages';

test.use(TECHNICIAN_PHONE);
test.describe.configure({ mode: 'serial' });

let world: CollectWorld;

test.beforeAll(async () => {
  world = await setUpWorld({ fluxos: 'hc,poste' });
});
test.afterAll(async () => {
  await world.admin.dispose();
});

/** A copy as NovusCopias holds it (web/src/offline/copias.ts), without the record itself. */
interface CopiaResumo {
  id: string;
  enviadoEm: number;
  bytes: number;
}

/** The device's copies, oldest first. */
async function deviceCopias(page: Page): Promise<CopiaResumo[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('NovusCopias');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<CopiaResumo[]>((resolve, reject) => {
      const request = db.transaction('copia').objectStore('copia').getAll();
      request.onsuccess = () => resolve(request.result as CopiaResumo[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return all
      .map(({ id, enviadoEm, bytes }) => ({ id, enviadoEm, bytes }))
      .sort((a, b) => a.enviadoEm - b.enviadoEm);
  });
}

async function serverPosteIds(admin: APIRequestContext): Promise<string[]> {
  const response = await admin.get(`/api/poste/getByNomeProjeto/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { _id: string }[]).map((poste) => poste._id);
}

async function serverUnidadeIds(admin: APIRequestContext): Promise<string[]> {
  const response = await admin.get(`/api/unidade/${encodeURIComponent(world.projetoNome)}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { _id: string }[]).map((unidade) => unidade._id);
}

async function syncNow(home: TechnicianHome): Promise<void> {
  await home.sync();
  await home.expectSynced();
}

/** The administrador's back office in a desktop window of its own. */
async function backofficeAsAdmin(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto('backoffice');
  await login.signIn(ADMIN.login, ADMIN.password);
  await expect(page).toHaveURL('/backoffice');
  return page;
}

test('a pole deleted in the back office stays deleted after the phone that sent it syncs again', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  acceptDialogs(page);
  const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });

  // A pole through the wizard, sent: it leaves the pending list, and its copy stays on the phone.
  await collectPoste(page, world.projetoId, 'Poste excluído');
  await page.goto('/');
  await expect(home.pendentes('Postes', 1)).toBeVisible();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  await syncNow(home);
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  const [copia] = await deviceCopias(page);
  expect(copia).toBeDefined();
  const posteId = copia?.id ?? '';
  expect(await serverPosteIds(world.admin)).toContain(posteId);
  await expect(page.getByTestId('copias-seguranca')).toHaveText(
    /^Cópias de segurança: 1 registro, \d+(,\d)? MB$/,
  );

  // The administrador deletes it from 'Revisão', with the technician's own confirmation.
  const backofficeContext = await browser.newContext({
    baseURL: BASE_URL,
    viewport: DESKTOP,
    isMobile: false,
    hasTouch: false,
    locale: 'pt-BR',
    reducedMotion: 'reduce',
  });
  const backoffice = await backofficeAsAdmin(backofficeContext);
  await new BackofficeShell(backoffice).menuLink('Revisão').click();
  const revisao = new RevisaoScreen(backoffice);
  await revisao.chooseProjeto(world.projetoNome);
  await revisao.row(posteId).click();
  await expect(revisao.registro).toContainText('Poste');
  await revisao.button('Excluir').click();
  const dialog = backoffice.getByRole('dialog', { name: 'Tem certeza?' });
  await expect(dialog).toContainText('Confirma exclusão do poste?');
  await expectAccessible(backoffice, 'revisão excluir registro');
  await screenshot(backoffice, 'backoffice-revisao-excluir');
  await dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(backoffice.getByText('Registro excluído.')).toBeVisible();
  await expect(revisao.row(posteId)).toHaveCount(0);
  expect(await serverPosteIds(world.admin)).not.toContain(posteId);
  await backofficeContext.close();

  // The phone syncs again: the server answers 'excluido', the copy goes, and nothing comes back.
  await page.reload();
  await syncNow(home);
  expect(await serverPosteIds(world.admin)).not.toContain(posteId);
  expect(await deviceCopias(page)).toEqual([]);
  await expect(page.getByTestId('copias-seguranca')).toHaveText('Cópias de segurança: 0 registros, 0 MB');
  await expectAccessible(page, 'home depois da exclusão');
});

test('short of space, the copies give way oldest first, and what they took comes off the storage panel', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  acceptDialogs(page);
  const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });

  // Three units sent one sync after the other, so their copies are kept in that order.
  const ids: string[] = [];
  for (const numero of ['7001', '7002', '7003']) {
    ids.push(
      ...(await putPendingUnidades(page, world.projetoId, [
        { numero, fotos: [`${numero} a`, `${numero} b`] },
      ])),
    );
    await page.reload();
    await expect(home.pendentes('Unidades', 1)).toBeVisible();
    await syncNow(home);
    await expect(home.pendentes('Unidades', 0)).toBeVisible();
  }
  const kept = await deviceCopias(page);
  expect(kept.map((copia) => copia.id)).toEqual(ids);
  await expect(page.getByTestId('copias-seguranca')).toHaveText(/^Cópias de segurança: 3 registros, /);

  // The device reports a quota its usage fills past the copies' limit (90 %) by the oldest copy and half the next
  // one: the sync must let the oldest two go. (Chromium's estimate keeps a fixed quota whatever CDP's override, so
  // the page is told the quota, as technician-faults.spec.ts does.)
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  const [first, second] = kept;
  const over = (first?.bytes ?? 0) + (second?.bytes ?? 0) / 2;
  await context.addInitScript(
    (quota) => {
      const estimate = StorageManager.prototype.estimate;
      StorageManager.prototype.estimate = async function (this: StorageManager) {
        return { ...(await estimate.call(this)), quota };
      };
    },
    Math.round((usage - over) / 0.9),
  );
  await page.reload();
  await syncNow(home);

  // The oldest went first, the newest stays (the estimate moves a little between readings: one or two went).
  const left = (await deviceCopias(page)).map((copia) => copia.id);
  test.info().annotations.push({ type: 'cópias depois do aperto', description: String(left.length) });
  expect(left.length).toBeGreaterThanOrEqual(1);
  expect(left.length).toBeLessThanOrEqual(2);
  expect(left).toEqual(ids.slice(ids.length - left.length));
  await expect(page.getByTestId('copias-seguranca')).toHaveText(
    new RegExp(`^Cópias de segurança: ${left.length} registros?, `),
  );
  await expectAccessible(page, 'home com cópias aparadas');
  await screenshot(page, 'tecnico-home-copias-aparadas');
  // Trimming let go of copies only: every unit is still on the server, once.
  const onServer = await serverUnidadeIds(world.admin);
  for (const id of ids) expect(onServer.filter((stored) => stored === id)).toHaveLength(1);
});
