import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { NovusDatabase, STORE_NAMES } from '../src/offline/db';
import { LocalStore } from '../src/offline/local-store';

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
