// Issue 40: WebKit in a private window (and WebKitGTK's automation session) refuses Blobs in IndexedDB. The device
// then keeps its photos as their bytes and goes on: a record with photos saves and reads back as Blobs of the same
// bytes, compresses, uploads, is kept among the copies and sent again from them, a correction keeps its server photos;
// where Blobs are taken nothing changes.
import 'fake-indexeddb/auto';
import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorrecaoRemota } from '@novus/domain/api/revisao';
import { type FlowDefinition, uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { compressAll } from '../src/offline/compress';
import { CopiasDatabase, CopiaStore } from '../src/offline/copias';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { FOTOS_EM_BYTES_KEY, PhotoEncoding } from '../src/offline/photo-encoding';
import { exportPendentes } from '../src/offline/pendentes-export';
import { RecordStore } from '../src/offline/records';
import { PRIVATE_WINDOW_TEXT, saveErrorText, STORAGE_FULL_TEXT } from '../src/offline/storage';
import {
  type CopiaPergunta,
  type CopiaResposta,
  sha256Hex,
  SyncEngine,
  type SyncTransport,
  type UploadFoto,
  type UploadOptions,
} from '../src/offline/sync';
import { MemoryStorage } from './support/memory-storage';

const START = 1_790_000_000_000;
const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'poste', 'ip'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};
const AQUI = { lat: -25.435, lng: -49.275 };
const CORRIGIDA = '0190a1b2-c3d4-7e5f-8a9b-0000000000c1';

function bytes(seed: number, size = 3000): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) out[i] = (seed * 31 + i * 7) % 256;
  out.set([0xff, 0xd8, 0xff], 0);
  return out;
}

/** A photo as the camera input gives it. */
const cameraFile = (seed: number) => new File([bytes(seed)], `IMG_${seed}.jpg`, { type: 'image/jpeg' });

const hex = (data: Uint8Array<ArrayBuffer>) => sha256Hex(new Blob([data]));

/** A photo read from the device: a Blob (never the stored bytes), with its type, and the SHA-256 of its bytes. */
async function photoRead(foto: unknown): Promise<{ type: string; sha256: string } | null> {
  if (foto === null || foto === undefined) return null;
  expect(foto).toBeInstanceOf(Blob);
  const blob = foto as Blob; // checked just above
  return { type: blob.type, sha256: await sha256Hex(blob) };
}

const jpeg = async (seed: number) => ({ type: 'image/jpeg', sha256: await hex(bytes(seed)) });

const unidadeDados = (numero: string) => ({
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero,
  quantidade: '1',
});

function holdsBlob(value: unknown): boolean {
  if (value instanceof Blob) return true;
  if (Array.isArray(value)) return value.some(holdsBlob);
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value))
    return Object.values(value).some(holdsBlob);
  return false;
}

/** fake-indexeddb's queue of a transaction's requests (FDBTransaction._execRequestAsync). */
interface FakeTransaction {
  _execRequestAsync(request: { operation: () => unknown; source: IDBObjectStore }): IDBRequest;
}

/**
 * How WebKit refuses a value holding a Blob in an ephemeral session: since 2025 (WebKitGTK 2.50) the put is queued
 * and its request fails, aborting the transaction; before, put threw at once.
 */
type Refusal = 'on the request' | 'at once';

const REFUSALS: Refusal[] = ['on the request', 'at once'];

/**
 * IndexedDB refuses what `refuses` picks, as WebKit does; counts the refusals. `error` is what the engine says
 * (WebKit's own words by default).
 */
function refuseWrites(
  refusal: Refusal,
  refuses: (value: unknown) => boolean = holdsBlob,
  error?: DOMException,
) {
  const refused = { count: 0 };
  for (const method of ['put', 'add'] as const) {
    const original = IDBObjectStore.prototype[method];
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (
      this: IDBObjectStore,
      value: unknown,
      key?: IDBValidKey,
    ) {
      if (!refuses(value)) return original.call(this, value, key);
      refused.count += 1;
      if (refusal === 'at once') {
        throw (
          error ??
          new DOMException(
            'Failed to store record in an IDBObjectStore: BlobURLs are not yet supported.',
            'DataCloneError',
          )
        );
      }
      // fake-indexeddb's transaction is an FDBTransaction: its queue runs the operation and fails the request.
      return (this.transaction as unknown as FakeTransaction)._execRequestAsync({
        operation: () => {
          throw (
            error ??
            new DOMException('Error preparing Blob/File data to be stored in object store', 'UnknownError')
          );
        },
        source: this,
      });
    });
  }
  return refused;
}

/** What IndexedDB holds, read past Dexie (no reading hook). */
function storedRow(db: NovusDatabase | CopiasDatabase, store: string, id: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = db.backendDB().transaction(store).objectStore(store).get(id);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The form a photo is stored in: 'Blob', or 'bytes' for `{ bytes: ArrayBuffer, type }`. */
function storedForm(foto: unknown): string {
  if (foto === null) return 'vazio';
  if (foto instanceof Blob) return 'Blob';
  if (
    typeof foto === 'object' &&
    foto !== null &&
    'bytes' in foto &&
    foto.bytes instanceof ArrayBuffer &&
    'type' in foto
  ) {
    return 'bytes';
  }
  return typeof foto;
}

function fotosOf(row: unknown): unknown[] {
  if (typeof row === 'object' && row !== null && 'fotos' in row && Array.isArray(row.fotos)) return row.fotos;
  throw new Error('no photos stored');
}

const photoServidor = (seed: number) => new Blob([bytes(seed, 800)], { type: 'image/jpeg' });
const SERVER_FOTOS = new Map([
  [`/api/fotos/${CORRIGIDA}/0`, photoServidor(90)],
  [`/api/fotos/${CORRIGIDA}/1`, photoServidor(91)],
]);

/** A server that stores what it is sent, answers for kept records, and has one correction for the technician. */
class Server implements SyncTransport {
  readonly received = new Map<string, { reenvio: boolean; fotos: Map<number, string> }>();
  correcoes: CorrecaoRemota[] = [];

  getProjetos = async () => [structuredClone(PROJETO)];

  async upload(
    _flow: FlowDefinition,
    fields: Record<string, string>,
    fotos: UploadFoto[],
    options?: UploadOptions,
  ) {
    const { id, versao } = uploadEnvelopeSchema.parse(fields);
    const held = new Map<number, string>();
    for (const foto of fotos) held.set(foto.slot, 'blob' in foto ? await sha256Hex(foto.blob) : foto.hash);
    this.received.set(id, { reenvio: options?.reenvio === true, fotos: held });
    this.correcoes = this.correcoes.filter((correcao) => correcao.registro._id !== id || !versao);
    return { _id: id };
  }

  getByZona = async () => [];
  getByProjeto = async () => [];
  async log() {}

  async conferir(registros: CopiaPergunta[]): Promise<CopiaResposta[]> {
    return registros.map(({ id }) => ({
      id,
      estado: this.received.has(id) ? 'guardado' : 'faltando',
      fotosFaltando: [],
    }));
  }

  async getCorrecoes() {
    return structuredClone(this.correcoes);
  }

  async getFoto(url: string) {
    const blob = SERVER_FOTOS.get(url);
    if (!blob) throw new Error(`no photo ${url}`);
    return blob;
  }
}

async function correcao(): Promise<CorrecaoRemota> {
  const ref = async (slot: number) => {
    const url = `/api/fotos/${CORRIGIDA}/${slot}`;
    const blob = SERVER_FOTOS.get(url);
    if (!blob) throw new Error(url);
    return { slot, hash: await sha256Hex(blob), url };
  };
  return {
    fluxo: 'hc',
    registro: {
      _id: CORRIGIDA,
      projeto: PROJETO.id,
      coordenadas: AQUI,
      dataHora: START - 5000,
      sincronizadoEm: START - 4000,
      fotos: [`/api/fotos/${CORRIGIDA}/0`, `/api/fotos/${CORRIGIDA}/1`],
      tecnico: 'Maria',
      versao: 1,
      revisao: 'reprovado',
      ...unidadeDados('45'),
    },
    fotos: [await ref(0), await ref(1)],
    revisao: { versao: 1, comentario: 'Número errado.', campos: {}, revisor: 'Ana', em: START - 3000 },
  };
}

let databases = 0;

describe('a device whose IndexedDB refuses Blobs (a private window)', () => {
  let clock: number;
  let storage: MemoryStorage;
  let db: NovusDatabase;
  let copiasDb: CopiasDatabase;
  let copias: CopiaStore;
  let records: RecordStore;

  /** The device as a load of the app makes it: one photo encoding for both databases, kept in localStorage. */
  function load() {
    databases += 1;
    const fotos = new PhotoEncoding(storage);
    db = new NovusDatabase(`Novus-privada-${databases}`, fotos);
    copiasDb = new CopiasDatabase(`NovusCopias-privada-${databases}`, fotos);
    copias = new CopiaStore(copiasDb, () => clock);
    records = new RecordStore(db, () => clock, copias);
  }

  beforeEach(() => {
    clock = START;
    storage = new MemoryStorage();
    load();
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    for (const database of [db, copiasDb]) {
      database.close();
      await database.delete();
    }
  });

  const addUnidade = (numero: string, fotos: (Blob | null)[]) => {
    clock += 60_000;
    return records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos,
      dados: unidadeDados(numero),
    });
  };

  const sync = (server: Server) =>
    new SyncEngine({
      db,
      records,
      transport: server,
      flows: FLOWS,
      tecnico: 'Maria',
      now: () => clock,
    }).run();

  describe.each(REFUSALS)('refused %s', (refusal) => {
    it('a record with photos saves, as bytes, and reads back as Blobs of the same bytes', async () => {
      const refused = refuseWrites(refusal);
      const added = await addUnidade('10', [cameraFile(1), null, cameraFile(2)]);

      expect(refused.count).toBe(1);
      expect(db.fotos.storesBytes).toBe(true);
      expect(storage.getItem(FOTOS_EM_BYTES_KEY)).toBe('sim');
      expect(fotosOf(await storedRow(db, unidadeFlow.store, added.id)).map(storedForm)).toEqual([
        'bytes',
        'vazio',
        'bytes',
      ]);
      const expected = [await jpeg(1), null, await jpeg(2)];
      expect(added.fotosSha256).toEqual([expected[0]?.sha256, null, expected[2]?.sha256]);
      for (const read of [
        await records.getByID(unidadeFlow, added.id),
        ...(await records.pending(unidadeFlow)),
        ...(await records.byProjeto(unidadeFlow, PROJETO.id)),
      ]) {
        expect(await Promise.all((read?.fotos ?? []).map(photoRead))).toEqual(expected);
      }

      // The device knows now: the next save is not refused first.
      await addUnidade('11', [cameraFile(3)]);
      expect(refused.count).toBe(1);
    });

    it('Exportar pendentes carries the photos’ bytes', async () => {
      refuseWrites(refusal);
      const added = await addUnidade('12', [cameraFile(21), null, cameraFile(22)]);
      const exported = await exportPendentes(records, FLOWS, { nome: 'Maria' }, clock);
      expect(exported).toMatchObject({ registros: 1, fotos: 2 });
      const files = unzipSync(exported.zip);
      expect(files[`fotos/${added.id}/0.jpg`]).toEqual(new Uint8Array(bytes(21)));
      expect(files[`fotos/${added.id}/2.jpg`]).toEqual(new Uint8Array(bytes(22)));
    });

    it('a point collected and edited keeps its photos as bytes', async () => {
      refuseWrites(refusal);
      const drawn = await records.addPoint(ipFlow, PROJETO.id, AQUI);
      await records.collect(ipFlow, drawn.id, {
        coordenadas: AQUI,
        fotos: [cameraFile(4)],
        dados: { possuiIP: true },
      });
      const read = await records.getByID(ipFlow, drawn.id);
      if (!read) throw new Error('no record');
      await records.update(ipFlow, { ...read, fotos: [read.fotos[0] ?? null, cameraFile(5)] });
      expect(fotosOf(await storedRow(db, ipFlow.store, drawn.id)).map(storedForm)).toEqual([
        'bytes',
        'bytes',
      ]);
      const edited = await records.getByID(ipFlow, drawn.id);
      expect(await Promise.all((edited?.fotos ?? []).map(photoRead))).toEqual([await jpeg(4), await jpeg(5)]);
    });

    it('Compactar Imagens replaces the photos with their compressed bytes', async () => {
      refuseWrites(refusal);
      clock += 60_000;
      const added = await records.add(posteFlow, {
        projeto: PROJETO.id,
        dataHora: clock,
        coordenadas: AQUI,
        fotos: [cameraFile(6), null],
        dados: { tipo: 'CONCRETO DUPLO T', altura: '11' },
      });
      const compressed = bytes(60, 500);
      const seen: string[] = [];
      const done = await compressAll(records, FLOWS, async (foto) => {
        seen.push(await sha256Hex(foto));
        return new Blob([compressed], { type: 'image/jpeg' });
      });
      expect(done).toBe(1);
      expect(seen).toEqual([await hex(bytes(6))]);
      const row = await storedRow(db, posteFlow.store, added.id);
      expect(fotosOf(row).map(storedForm)).toEqual(['bytes', 'vazio']);
      const read = await records.getByID(posteFlow, added.id);
      expect(read?.imagensCompactadas).toBe(true);
      expect(read?.fotosOriginaisSha256).toEqual([await hex(bytes(6)), null]);
      expect(await photoRead(read?.fotos[0])).toEqual({ type: 'image/jpeg', sha256: await hex(compressed) });
    });

    it('uploads the same bytes, keeps the copy as bytes, and sends it again from the copy', async () => {
      refuseWrites(refusal);
      const added = await addUnidade('20', [cameraFile(7), cameraFile(8)]);
      await records.update(unidadeFlow, { ...added, imagensCompactadas: true });
      const server = new Server();

      expect((await sync(server)).ok).toBe(true);

      const hashes = new Map([
        [0, await hex(bytes(7))],
        [1, await hex(bytes(8))],
      ]);
      expect(server.received.get(added.id)).toEqual({ reenvio: false, fotos: hashes });
      expect(await records.getByID(unidadeFlow, added.id)).toBeUndefined();
      const copiaRow = await storedRow(copiasDb, 'copia', added.id);
      const registro =
        typeof copiaRow === 'object' && copiaRow !== null && 'registro' in copiaRow
          ? copiaRow.registro
          : null;
      expect(fotosOf(registro).map(storedForm)).toEqual(['bytes', 'bytes']);
      const [copia] = await copias.ofTecnico('Maria');
      expect(await Promise.all((copia?.registro.fotos ?? []).map(photoRead))).toEqual([
        await jpeg(7),
        await jpeg(8),
      ]);
      // What the copy takes counts its photos' bytes, as where Blobs are stored.
      expect(copia?.bytes).toBeGreaterThan(2 * 3000);
      expect(await copias.resumo()).toEqual({ registros: 1, bytes: copia?.bytes });

      // The server restored from an older backup: the copy goes again, photos and all.
      server.received.clear();
      expect((await sync(server)).ok).toBe(true);
      expect(server.received.get(added.id)).toEqual({ reenvio: true, fotos: hashes });
    });

    it('a correction keeps its server photos offline as bytes, and the fix is sent', async () => {
      refuseWrites(refusal);
      const server = new Server();
      server.correcoes = [await correcao()];
      expect((await sync(server)).ok).toBe(true);

      const row = await storedRow(db, unidadeFlow.store, CORRIGIDA);
      const servidor =
        typeof row === 'object' && row !== null && 'fotosServidor' in row && Array.isArray(row.fotosServidor)
          ? (row.fotosServidor as { blob?: unknown }[]) // the stored record's own field
          : [];
      expect(servidor.map((foto) => storedForm(foto.blob))).toEqual(['bytes', 'bytes']);
      const stored = await records.getByID(unidadeFlow, CORRIGIDA);
      const kept = stored?.fotosServidor ?? [];
      expect(await Promise.all(kept.map((foto) => photoRead(foto.blob)))).toEqual([
        { type: 'image/jpeg', sha256: await sha256Hex(photoServidor(90)) },
        { type: 'image/jpeg', sha256: await sha256Hex(photoServidor(91)) },
      ]);

      clock += 60_000;
      await records.correct(unidadeFlow, CORRIGIDA, {
        coordenadas: AQUI,
        fotos: [cameraFile(9), null],
        imagensCompactadas: true,
        fotosServidor: kept,
        dados: unidadeDados('54'),
      });
      expect(fotosOf(await storedRow(db, unidadeFlow.store, CORRIGIDA)).map(storedForm)).toEqual([
        'bytes',
        'vazio',
      ]);
      expect((await sync(server)).ok).toBe(true);
      expect(server.received.get(CORRIGIDA)?.fotos).toEqual(
        new Map([
          [0, await hex(bytes(9))],
          [1, await sha256Hex(photoServidor(91))],
        ]),
      );
    });

    it('the next load stores bytes from the start: no write is refused again', async () => {
      const refused = refuseWrites(refusal);
      await addUnidade('30', [cameraFile(10)]);
      expect(refused.count).toBe(1);
      const before = db;
      load();
      expect(db).not.toBe(before);
      expect(db.fotos.storesBytes).toBe(true);
      const added = await addUnidade('31', [cameraFile(11)]);
      expect(refused.count).toBe(1);
      expect(await photoRead((await records.getByID(unidadeFlow, added.id))?.fotos[0])).toEqual(
        await jpeg(11),
      );
      before.close();
      await before.delete();
    });

    it('when even the bytes are refused, the technician reads in Portuguese what to do', async () => {
      const refused = refuseWrites(refusal, holdsPhoto);
      const error = await addUnidade('40', [cameraFile(12)]).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(refused.count).toBe(2); // as a Blob, then as bytes
      expect(error).not.toBeNull();
      expect(saveErrorText(error)).toBe(PRIVATE_WINDOW_TEXT);
    });

    it('a full device is not taken for a refused Blob: photos stay Blobs, the text says so', async () => {
      refuseWrites(
        refusal,
        holdsBlob,
        new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
      );
      const error = await addUnidade('50', [cameraFile(13)]).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(db.fotos.storesBytes).toBe(false);
      expect(storage.getItem(FOTOS_EM_BYTES_KEY)).toBeNull();
      expect(saveErrorText(error)).toBe(STORAGE_FULL_TEXT);
    });
  });

  it('where Blobs are taken nothing changes: photos and copies are stored as Blobs', async () => {
    const added = await addUnidade('60', [cameraFile(14), null]);
    expect(db.fotos.storesBytes).toBe(false);
    expect(storage.getItem(FOTOS_EM_BYTES_KEY)).toBeNull();
    expect(fotosOf(await storedRow(db, unidadeFlow.store, added.id)).map(storedForm)).toEqual([
      'Blob',
      'vazio',
    ]);
    expect(await photoRead((await records.getByID(unidadeFlow, added.id))?.fotos[0])).toEqual(await jpeg(14));

    await records.update(unidadeFlow, { ...added, imagensCompactadas: true });
    expect((await sync(new Server())).ok).toBe(true);
    const copiaRow = await storedRow(copiasDb, 'copia', added.id);
    const registro =
      typeof copiaRow === 'object' && copiaRow !== null && 'registro' in copiaRow ? copiaRow.registro : null;
    expect(fotosOf(registro).map(storedForm)).toEqual(['Blob', 'vazio']);
  });
});

/** A value holding a photo in either form. */
function holdsPhoto(value: unknown): boolean {
  if (value instanceof Blob || value instanceof ArrayBuffer) return true;
  if (Array.isArray(value)) return value.some(holdsPhoto);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsPhoto);
  return false;
}
