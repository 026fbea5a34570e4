import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NovusDatabase, STORE_NAMES } from '../src/offline/db';
import { isConnectionLost, reopening } from '../src/offline/reopen';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { LocalStore } from '../src/offline/local-store';
import { RecordStore } from '../src/offline/records';

const EXPECTED_STORES = [
  'arvore',
  'bdgd',
  'fiscalizacao',
  'grupoA',
  'ip',
  'lpt',
  'lptv2',
  'poste',
  'projeto',
  'unidade',
];

describe('the device database', () => {
  let db: NovusDatabase | undefined;

  afterEach(async () => {
    if (db === undefined) return;
    db.close();
    await db.delete();
    db = undefined;
  });

  it('opens as Novus at IndexedDB version 21 with one store per flow plus projeto', async () => {
    db = new NovusDatabase();
    await db.open();
    const native = db.backendDB();
    expect(native.name).toBe('Novus');
    expect(native.version).toBe(21);
    expect([...native.objectStoreNames].sort()).toEqual(EXPECTED_STORES);
    expect([...STORE_NAMES].sort()).toEqual(EXPECTED_STORES);
  });

  it('keys every store by id and indexes the sync state', async () => {
    db = new NovusDatabase();
    await db.open();
    for (const table of db.tables) {
      expect(table.schema.primKey.keyPath).toBe('id');
      if (table.name !== 'projeto') expect(table.schema.idxByName).toHaveProperty('sincronizadoEm');
    }
  });

  it('reports the native version to the home screen and lists projects by name', async () => {
    db = new NovusDatabase();
    const store = new LocalStore(db);
    await db.projeto.bulkAdd([
      { id: 'b', nome: 'Zeta', fluxos: ['hc'], zonas: [] },
      { id: 'a', nome: 'Alfa', fluxos: ['poste'], zonas: [] },
    ]);
    expect(await store.info()).toEqual({ name: 'Novus', nativeVersion: 21 });
    expect((await store.listProjetos()).map((p) => p.nome)).toEqual(['Alfa', 'Zeta']);
  });
});

/** A raw connection, as an old tab (or a newer version) holds it: it never answers versionchange. */
function openRaw(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

describe('the device database in the browser as it is (issue 25)', () => {
  it('says it is blocked while an old tab holds an older version open, and upgrades once it closes', async () => {
    const old = await openRaw('Bloqueado', 20);
    const db = new NovusDatabase('Bloqueado');
    const states: string[] = [];
    db.subscribe(() => states.push(db.getState()));
    const opening = db.open();
    await vi.waitFor(() => expect(db.getState()).toBe('bloqueado'));
    old.close();
    await opening;
    expect(db.getState()).toBe('aberto');
    expect(db.backendDB().version).toBe(21);
    expect(states).toEqual(['bloqueado', 'aberto']);
    db.close();
    await db.delete();
  });

  it('lets go when a newer version asks (versionchange) and says this tab must reload', async () => {
    const db = new NovusDatabase('Substituido');
    await db.open();
    const newer = await openRaw('Substituido', 22);
    expect(newer.version).toBe(22);
    expect(db.getState()).toBe('substituido');
    // Its stores unchanged, Dexie opens the newer version: this tab's saves still work until it reloads.
    await expect(reopening(db, () => db.projeto.count())).resolves.toBe(0);
    expect(db.getState()).toBe('substituido');
    newer.close();
    await new NovusDatabase('Substituido').delete();
  });

  it('reopens a connection lost under the app and runs the write once more', async () => {
    const db = new NovusDatabase('Perdida');
    await db.open();
    db.backendDB().close();
    await reopening(db, () => db.projeto.put({ id: 'p', nome: 'Projeto', fluxos: [], zonas: [] }));
    expect(await db.projeto.get('p')).toMatchObject({ nome: 'Projeto' });
    let calls = 0;
    const lost = new DOMException(
      'Connection to Indexed Database server lost. Refresh the page to try again',
      'UnknownError',
    );
    const value = await reopening(db, async () => {
      calls += 1;
      if (calls === 1) throw lost;
      return db.projeto.count();
    });
    expect({ calls, value }).toEqual({ calls: 2, value: 1 });
    // Any other error is the caller's, at once.
    calls = 0;
    await expect(
      reopening(db, async () => {
        calls += 1;
        throw new Error('O número é obrigatório.');
      }),
    ).rejects.toThrow('O número é obrigatório.');
    expect(calls).toBe(1);
    db.close();
    await db.delete();
  });

  it('tells a lost connection from other failures', () => {
    expect(
      isConnectionLost(new DOMException('The database connection is closing.', 'InvalidStateError')),
    ).toBe(true);
    expect(isConnectionLost({ name: 'AbortError', inner: { name: 'UnknownError', message: 'x' } })).toBe(
      true,
    );
    expect(isConnectionLost(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))).toBe(
      false,
    );
  });
});

describe('the record store on a connection lost under it (issue 25)', () => {
  it('a save whose write fails with a lost connection is retried on a reopened database and committed once', async () => {
    const db = new NovusDatabase('PerdidaNoMeio');
    let failures = 1;
    // What WebKit does to an app coming back from the background: the write's request fails, the connection is gone.
    db.use({
      stack: 'dbcore',
      name: 'conexao-perdida',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return {
            ...table,
            mutate: (request) => {
              if (failures > 0 && name === unidadeFlow.store) {
                failures -= 1;
                return Promise.reject(
                  new DOMException(
                    'Connection to Indexed Database server lost. Refresh the page to try again',
                    'UnknownError',
                  ),
                );
              }
              return table.mutate(request);
            },
          };
        },
      }),
    });
    const records = new RecordStore(db);
    const saved = await records.add(unidadeFlow, {
      projeto: 'p1',
      dataHora: 1,
      coordenadas: { lat: -25.4, lng: -49.2 },
      fotos: [new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' })],
      dados: { numero: '10' },
    });
    expect(failures).toBe(0);
    const all = await records.getAll(unidadeFlow);
    expect(all.map((record) => record.id)).toEqual([saved.id]);
    const foto = all[0]?.fotos[0];
    expect(foto && new Uint8Array(await foto.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    db.close();
    await db.delete();
  });

  it('a save on a connection closed under the app succeeds after the reopen', async () => {
    const db = new NovusDatabase('FechadaAntes');
    const records = new RecordStore(db);
    await db.open();
    db.backendDB().close();
    const saved = await records.add(unidadeFlow, {
      projeto: 'p1',
      dataHora: 1,
      coordenadas: { lat: -25.4, lng: -49.2 },
      fotos: [],
      dados: { numero: '11' },
    });
    expect((await records.getByID(unidadeFlow, saved.id))?.dados).toEqual({ numero: '11' });
    db.close();
    await db.delete();
  });
});
