// The home's reads without Dexie (issue 41): what Dexie wrote, read back from the same stores; no database created
// where the device has none; an older one upgraded by Dexie first; a newer version's upgrade never blocked; Dexie's
// change notices heard; and the banners' figures the same as the record store's.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIAS_DB_NAME } from '@novus/domain/constants';
import { ipFlow } from '@novus/domain/flows/ip';
import { FLUXOS } from '@novus/domain/flows/keys';
import { FLOW_METAS } from '@novus/domain/flows/meta';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { CopiasDatabase, CopiaStore } from '../src/offline/copias';
import { NovusDatabase } from '../src/offline/db';
import { LocalStore } from '../src/offline/local-store';
import { LocalReader, openExisting, readCopiasResumo } from '../src/offline/local-reader';
import { RecordStore, type RemoteColeta } from '../src/offline/records';
import { summarizePending } from '../src/offline/storage-panel';
import { readBanners, readPending } from '../src/technician/home-device';

const START = 1_790_000_000_000;
const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const AQUI = { lat: -25.435, lng: -49.275 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((info) => info.name ?? '');
}

/** An old tab's database: created at `version` with IndexedDB itself, no stores. */
function rawDatabase(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function preloadedIp(id: string, changes: Partial<RemoteColeta> = {}): RemoteColeta {
  return {
    _id: id,
    projeto: PROJETO,
    coordenadas: AQUI,
    dataHora: null,
    sincronizadoEm: START - 86_400_000,
    fotos: [],
    coletado: false,
    adicionadoApp: false,
    carregadoBackoffice: true,
    ...changes,
  };
}

let databases = 0;

describe('LocalReader', () => {
  let name: string;
  let db: NovusDatabase;
  let records: RecordStore;
  let reader: LocalReader;
  let upgrade: ReturnType<typeof vi.fn<() => Promise<unknown>>>;
  let clock = START;

  beforeEach(() => {
    clock = START;
    name = `Novus-leitor-${(databases += 1)}`;
    db = new NovusDatabase(name);
    records = new RecordStore(db, () => clock);
    upgrade = vi.fn(() => new LocalStore(db).info());
    reader = new LocalReader({ name, upgrade });
  });
  afterEach(async () => {
    reader.close();
    db.close();
    await db.delete();
  });

  const addUnidade = (numero: string) => {
    clock += 1000;
    return records.add(unidadeFlow, {
      projeto: PROJETO,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [new Blob([new Uint8Array([0xff, 0xd8, 0xff, 1])], { type: 'image/jpeg' }), null, null],
      dados: { tipoUnidade: 'SDU', tipoEdificacao: 'Residencial', tipoImovel: 'RESIDENCIAL', numero },
    });
  };

  it('finds no database on a device that has none, and creates none', async () => {
    expect(await reader.info()).toEqual({ exists: false });
    expect(await reader.getAll(['projeto', 'unidade'])).toEqual({ exists: false });
    expect(await databaseNames()).not.toContain(name);
    expect(upgrade).not.toHaveBeenCalled();
    expect(await openExisting(indexedDB, name)).toBeNull();
  });

  it("reads what Dexie wrote, from Dexie's own stores, and the version the browser reports (21)", async () => {
    await db.projeto.put({ id: PROJETO, nome: 'Projeto Leitor', fluxos: ['hc', 'ip'], zonas: [] });
    const unidade = await addUnidade('100');
    const found = await reader.getAll(['projeto', 'unidade', 'poste', 'nao-existe']);
    if (!found.exists) throw new Error('the database exists');
    expect(found.value.get('projeto')).toEqual([
      { id: PROJETO, nome: 'Projeto Leitor', fluxos: ['hc', 'ip'], zonas: [] },
    ]);
    expect(found.value.get('unidade')).toEqual([
      expect.objectContaining({ id: unidade.id, dataHora: clock }),
    ]);
    expect(found.value.get('poste')).toEqual([]);
    expect(found.value.get('nao-existe')).toEqual([]);
    expect(await reader.info()).toEqual({ exists: true, value: 21 });
    expect(upgrade).not.toHaveBeenCalled();
  });

  it('has Dexie upgrade an older version before reading it (an old tab left version 20)', async () => {
    db.close();
    (await rawDatabase(name, 20)).close();
    expect(await reader.info()).toEqual({ exists: true, value: 21 });
    expect(upgrade).toHaveBeenCalledTimes(1);
    expect((await reader.getAll(['unidade'])).exists).toBe(true);
  });

  it('lets a newer version (another tab) take the database at once, and says so', async () => {
    await db.open();
    db.close();
    expect((await reader.info()).exists).toBe(true);
    const heard = vi.fn();
    reader.subscribe(heard);
    expect(reader.getState()).toBe('aberto');

    const blocked = vi.fn();
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 22);
      request.onblocked = blocked;
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    expect(newer.version).toBe(22);
    newer.close();
    expect(blocked).not.toHaveBeenCalled();
    expect(reader.getState()).toBe('substituido');
    expect(heard).toHaveBeenCalled();
    // it reads on from the newer database, still saying it was replaced
    expect(await reader.info()).toEqual({ exists: true, value: 22 });
    expect(reader.getState()).toBe('substituido');
  });

  it('opens again when the connection was closed under it (iOS in the background)', async () => {
    await addUnidade('100');
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    expect((await reader.getAll(['unidade'])).exists).toBe(true);
    const [connection] = spy.mock.contexts;
    spy.mockRestore();
    (connection as IDBDatabase).close();
    const found = await reader.getAll(['unidade']);
    expect(found.exists && found.value.get('unidade')).toHaveLength(1);
  });

  it("hears Dexie's notice of a write committed (the channel other tabs hear), once for a burst", async () => {
    await db.open();
    const heard = vi.fn();
    const stop = reader.onChange(heard, 20);
    try {
      await addUnidade('100');
      await addUnidade('101');
      await sleep(100);
      expect(heard).toHaveBeenCalledTimes(1);
      await records.deleteRecord(unidadeFlow, (await records.getAll(unidadeFlow))[0]?.id ?? '');
      await sleep(100);
      expect(heard).toHaveBeenCalledTimes(2);
    } finally {
      stop();
    }
    await addUnidade('102');
    await sleep(100);
    expect(heard).toHaveBeenCalledTimes(2);
  });

  it("reads the banners and the storage panel's figures as the record store counts them", async () => {
    await db.projeto.put({ id: PROJETO, nome: 'Projeto Leitor', fluxos: ['hc', 'ip'], zonas: [] });
    await addUnidade('100');
    await addUnidade('101');
    await records.merge(ipFlow, [
      preloadedIp('0190a1b2-c3d4-7e5f-8a9b-0000000000a1'),
      preloadedIp('0190a1b2-c3d4-7e5f-8a9b-0000000000a2'),
    ]);
    clock += 1000;
    await records.collect(ipFlow, '0190a1b2-c3d4-7e5f-8a9b-0000000000a1', {
      coordenadas: AQUI,
      fotos: [],
      dados: { possuiIP: true },
    });
    // a unit the reviewer sent back (issue 24), downloaded by a sync
    await db.table('unidade').put({
      id: '0190a1b2-c3d4-7e5f-8a9b-0000000000c1',
      projeto: PROJETO,
      dataHora: START,
      coordenadas: AQUI,
      fotos: [],
      imagensCompactadas: true,
      sincronizadoEm: START,
      correcao: { versao: 2, comentario: 'Número errado', campos: ['numero'], revisor: 'Rita', em: START },
      dados: {},
    });

    expect(await readBanners(reader)).toEqual({
      pending: [
        { fluxo: 'hc', label: 'Unidades', count: 2, oldest: START + 1000 },
        { fluxo: 'ip', label: 'Uso Mútuo / IP', count: 1, oldest: START + 3000 },
      ],
      correcoes: 1,
    });
    const entries = [];
    for (const flow of FLOWS) entries.push({ flow, records: await records.getAll(flow) });
    expect(await readPending(reader)).toEqual(summarizePending(entries));
    expect((await readPending(reader)).fotos).toBe(2);
    for (const flow of FLOWS) {
      const banner = (await readBanners(reader)).pending.find((item) => item.fluxo === flow.key);
      if (banner) expect(banner.count).toBe((await records.pending(flow)).length);
    }
  });

  it('reads the records once for the banners and the storage panel asked together, and again for a later question', async () => {
    await db.projeto.put({ id: PROJETO, nome: 'Projeto Leitor', fluxos: ['hc'], zonas: [] });
    await addUnidade('100');
    const getAll = vi.spyOn(reader, 'getAll');
    // as the home opens: both ask in the same turn
    const [banners, pending] = await Promise.all([readBanners(reader), readPending(reader)]);
    expect(getAll).toHaveBeenCalledTimes(1);
    expect(banners.pending[0]?.count).toBe(1);
    expect(pending.records).toBe(1);
    // a question asked once that read began is not answered by it: a unit saved meanwhile counts
    const first = readBanners(reader);
    await sleep(1);
    await addUnidade('101');
    const second = readPending(reader);
    expect((await first).pending[0]?.count).toBe(1);
    expect((await second).records).toBe(2);
    expect(getAll).toHaveBeenCalledTimes(3);
  });

  it('shows no banner and no count before the first sync (no database)', async () => {
    expect(await readBanners(reader)).toEqual({ pending: [], correcoes: 0 });
    expect((await readPending(reader)).records).toBe(0);
    expect(await databaseNames()).not.toContain(name);
  });
});

describe("the flows' names without their schemas (domain/flows/meta.ts)", () => {
  it("are the registry's, in its order", () => {
    expect(FLOW_METAS.map((flow) => flow.key)).toEqual(FLUXOS);
    expect(FLOW_METAS).toEqual(
      FLOWS.map(({ key, labels, store, lifecycle }) => ({ key, labels, store, lifecycle })),
    );
  });
});

describe('readCopiasResumo', () => {
  afterEach(async () => {
    await new CopiasDatabase().delete();
  });

  it('counts nothing, and creates nothing, on a device that keeps no copies yet', async () => {
    expect(await readCopiasResumo()).toEqual({ registros: 0, bytes: 0 });
    expect(await databaseNames()).not.toContain(COPIAS_DB_NAME);
  });

  it('sums the copies as the copy store does', async () => {
    const copiasDb = new CopiasDatabase();
    const copias = new CopiaStore(copiasDb, () => START);
    const registro = {
      id: '0190a1b2-c3d4-7e5f-8a9b-0000000000d1',
      projeto: PROJETO,
      dataHora: START,
      coordenadas: AQUI,
      fotos: [new Blob([new Uint8Array(1000)], { type: 'image/jpeg' })],
      imagensCompactadas: true,
      dados: { numero: '1' },
    };
    await copias.keep(unidadeFlow, registro, 'Maria');
    await copias.keep(unidadeFlow, { ...registro, id: '0190a1b2-c3d4-7e5f-8a9b-0000000000d2' }, 'Maria');
    const esperado = await copias.resumo();
    copiasDb.close();
    expect(esperado.registros).toBe(2);
    expect(await readCopiasResumo()).toEqual(esperado);
  });
});
