// The phones as the last backup (issue 39): on PostgreSQL, poles synced, a backup taken as docs/operations.md says
// (the database dump, then a copy of the photo store), more poles synced, the disk lost and the server restored from
// the backup; the technician's next 'Sincronizar' brings back what the backup missed, each pole once, photos byte
// for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test as base } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { acceptDialogs, signInSynced, type TechnicianHome } from '../support/collect-pages';
import { setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import { OwnServer, ScratchDatabases } from '../support/own-server';
import {
  collectPoste,
  devicePostes,
  expectPostesOnServerOnce,
  putPendingPostes,
  serverPostes,
} from '../support/poste-device';
import { screenshot } from '../support/screens';

const clusterUrl = process.env.DATABASE_URL;

interface Restauro {
  server: OwnServer;
  databases: ScratchDatabases;
  /** Where the backup goes, away from the server's DATA_DIR. */
  backup: string;
}

/**
 * A server of this spec's own on a scratch database of the cluster, the browser's origin: the run's server is on
 * PGlite and must not be stopped. Stopped, and its databases, data directory and backup removed, whatever the
 * journey did.
 */
const test = base.extend<{ restauro: Restauro }>({
  restauro: async ({ browserName: _ }, use) => {
    const databases = new ScratchDatabases(clusterUrl ?? '');
    const server = await OwnServer.create();
    const backup = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-e2e-backup-'));
    try {
      await use({ server, databases, backup });
    } finally {
      await server.dispose();
      await databases.dropAll();
      fs.rmSync(backup, { recursive: true, force: true });
    }
  },
  baseURL: async ({ restauro }, use) => {
    await use(restauro.server.url);
  },
});

test.use(TECHNICIAN_PHONE);
test.skip(
  !clusterUrl,
  'needs PostgreSQL: DATABASE_URL names a database of a cluster it may create databases on',
);

/** Compresses what is pending and syncs it; the device's pending poles as they were sent. */
async function compressAndSync(page: Page, home: TechnicianHome, pendentes: number) {
  await page.goto('/');
  await expect(home.pendentes('Postes', pendentes)).toBeVisible();
  await home.compactar.click();
  await expect(home.status).toHaveText('Compactacao concluida com sucesso', { timeout: 60_000 });
  const sent = await devicePostes(page);
  expect(sent).toHaveLength(pendentes);
  await home.sync();
  await home.expectSynced();
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  return sent;
}

test('the server restored from a backup: the next sync brings back every pole once, photos byte for byte', async ({
  page,
  context,
  restauro: { server, databases, backup },
}) => {
  // A wizard pole and a compression twice, a server started twice, a dump and a restore.
  test.setTimeout(180_000);
  const database = await databases.create('novus_e2e_restauro');
  await server.start(databases.urlOf(database));
  const world = await setUpWorld({ fluxos: 'poste', baseURL: server.url });
  acceptDialogs(page);
  const home = await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });

  // The day before the backup: a pole through the wizard and one more as the phone holds it, synced.
  await collectPoste(page, world.projetoId, 'Poste 1');
  await page.goto('/');
  await putPendingPostes(page, world.projetoId, ['Poste 2']);
  const antes = await compressAndSync(page, home, 2);
  await expectPostesOnServerOnce(world.admin, world.projetoNome, antes);

  // The night's backup: the dump first, then the photos (a photo copied after the dump is at worst one no record
  // names yet, never a record without its photo).
  const dump = path.join(backup, 'novus.dump');
  await databases.dump(database, dump);
  fs.cpSync(server.fotosDir, path.join(backup, 'fotos'), { recursive: true });

  // The next day: two more poles synced, which the backup does not hold.
  await collectPoste(page, world.projetoId, 'Poste 3');
  await page.goto('/');
  await putPendingPostes(page, world.projetoId, ['Poste 4']);
  const depois = await compressAndSync(page, home, 2);
  const todos = [...antes, ...depois];
  await expectPostesOnServerOnce(world.admin, world.projetoNome, todos);
  await expect(page.getByText(/^Cópias de segurança: 4 registros, /)).toBeVisible();

  // The disk is lost. Restored as docs/operations.md says: the dump into a new database, the photo store from its
  // copy (DATA_DIR keeps its auth-secret, so the technician's session still holds), the server started on the
  // restored database at the same address.
  await server.stop();
  await databases.drop(database);
  const restaurado = await databases.create('novus_e2e_restaurado');
  await databases.restore(dump, restaurado);
  fs.rmSync(server.fotosDir, { recursive: true, force: true });
  fs.cpSync(path.join(backup, 'fotos'), server.fotosDir, { recursive: true });
  await server.start(databases.urlOf(restaurado));
  // the server is back at the night of the backup
  expect((await serverPostes(world.admin, world.projetoNome)).map((poste) => poste._id).sort()).toEqual(
    antes.map((poste) => poste.id).sort(),
  );

  // The technician syncs. The re-sent uploads are held until the status line was seen: unheld, two small uploads
  // on a local link pass in less time than an assertion polls.
  await page.reload();
  await expect(home.pendentes('Postes', 0)).toBeVisible();
  await expectAccessible(page, 'home antes da sincronização');
  let statusSeen!: () => void;
  const seen = new Promise<void>((resolve) => (statusSeen = resolve));
  const reenviados: string[] = [];
  await context.route('**/api/poste', async (route) => {
    const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
    if (route.request().method() === 'POST' && body.includes('name="reenvio"')) {
      reenviados.push(/name="id"\r\n\r\n([0-9a-f-]+)/.exec(body)?.[1] ?? '?');
      await seen;
    }
    await route.fallback();
  });
  await home.sync();
  await expect(home.status).toHaveText(/^Reenviando 2 registros que o servidor perdeu$/, { timeout: 30_000 });
  await screenshot(page, 'tecnico-restauro-reenviando');
  statusSeen();
  await home.expectSynced();
  await context.unrouteAll({ behavior: 'wait' });
  expect(reenviados.sort()).toEqual(depois.map((poste) => poste.id).sort());
  await expectPostesOnServerOnce(world.admin, world.projetoNome, todos);

  // The operator reads it in the Auditoria: each pole sent again, once, by the phone.
  const reenviosAuditados = async () => {
    const auditoria = await world.admin.get('/api/auditoria?tamanho=200');
    expect(auditoria.ok()).toBe(true);
    const { entradas } = (await auditoria.json()) as {
      entradas: {
        entidade: string;
        entidadeId: string;
        acao: string;
        depois: { reenvio?: boolean } | null;
      }[];
    };
    return entradas
      .filter((entrada) => entrada.entidade === 'registro' && entrada.depois?.reenvio)
      .map((entrada) => [entrada.entidadeId, entrada.acao])
      .sort();
  };
  const esperados = depois.map((poste) => [poste.id, 'criar']).sort();
  expect(await reenviosAuditados()).toEqual(esperados);

  // A sync after that has nothing to bring back: nothing sent again, still each pole once.
  await home.sync();
  await home.expectSynced();
  expect(await reenviosAuditados()).toEqual(esperados);
  await expectPostesOnServerOnce(world.admin, world.projetoNome, todos);
  await expectAccessible(page, 'home após a restauração');
  await screenshot(page, 'tecnico-restauro');
  await world.admin.dispose();
});
