// Issue 25: pending photos are kept as bytes, not as the camera's File objects (iOS 18 corrupts Files kept in
// IndexedDB), each with the SHA-256 of those bytes; the sync sends no photo whose bytes no longer match it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { FLOWS } from '@novus/domain/flows/registry';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { compressAll } from '../src/offline/compress';
import { type LocalProjeto, NovusDatabase } from '../src/offline/db';
import { type LocalColeta, RecordStore, type RemoteColeta } from '../src/offline/records';
import {
  corruptPhotoMessage,
  sha256Hex,
  SYNC_TEXTS,
  SyncEngine,
  type SyncTransport,
  type UploadFoto,
} from '../src/offline/sync';

const START = 1_790_000_000_000;
const PROJETO: LocalProjeto = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  nome: 'Curitiba',
  fluxos: ['hc', 'poste'],
  zonas: [{ _id: '0190a1b2-c3d4-7e5f-8a9b-000000000001', label: 'Zona Centro' }],
};
const AQUI = { lat: -25.435, lng: -49.275 };

function bytes(seed: number, size = 2000): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) out[i] = (seed * 31 + i * 7) % 256;
  out.set([0xff, 0xd8, 0xff], 0);
  return out;
}

/** A photo as the camera input gives it: a File. */
const cameraFile = (seed: number) =>
  new File([bytes(seed)], `IMG_${seed}.jpg`, { type: 'image/jpeg', lastModified: START });

const photo = (seed: number) => new Blob([bytes(seed)], { type: 'image/jpeg' });

async function hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  return sha256Hex(new Blob([data]));
}

const bytesOf = async (blob: Blob | null | undefined) =>
  blob ? new Uint8Array(await blob.arrayBuffer()) : undefined;

/** A photo whose stored bytes the browser can no longer read (the iOS 18 File bug). */
class UnreadableBlob extends Blob {
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.reject(new DOMException('The requested file could not be read.', 'NotReadableError'));
  }
}

const unidadeDados = (numero: string) => ({
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero,
  quantidade: '1',
});
const posteDados = {
  tipo: 'CONCRETO DUPLO T',
  altura: '11',
  carga: '300',
  tipoRedeEletrica: 'MISTA',
  aterramento: true,
  equipamentoRedeEnergia: 'NAO POSSUI',
};

let databases = 0;
let db: NovusDatabase;
let records: RecordStore;
let clock: number;

beforeEach(() => {
  clock = START;
  db = new NovusDatabase(`Novus-photo-bytes-${(databases += 1)}`);
  records = new RecordStore(db, () => clock);
});

afterEach(async () => {
  vi.restoreAllMocks();
  db.close();
  await db.delete();
});

/** What IndexedDB holds, read past the RecordStore. */
const storedRow = (flow: FlowDefinition, id: string) => db.table<LocalColeta, string>(flow.store).get(id);

/**
 * The photos handed to IndexedDB by the store's writes. Node's structured clone turns a File into a Blob, so only
 * what is written tells whether a File would reach a browser's IndexedDB.
 */
function writtenPhotos(flow: FlowDefinition): (Blob | null)[] {
  const written: (Blob | null)[] = [];
  const table = db.table<LocalColeta, string>(flow.store);
  for (const method of ['add', 'put'] as const) {
    const original = table[method].bind(table);
    vi.spyOn(table, method).mockImplementation((record: LocalColeta) => {
      written.push(...record.fotos);
      return original(record);
    });
  }
  return written;
}

const files = (fotos: readonly (Blob | null)[]) => fotos.filter((foto) => foto instanceof File);

describe('photos written to the device', () => {
  it('a File from the camera is stored as a Blob of its bytes, with their SHA-256', async () => {
    const written = writtenPhotos(unidadeFlow);
    const file = cameraFile(1);
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [file, null, cameraFile(2)],
      dados: unidadeDados('10'),
    });
    expect(added.fotos[0]).not.toBe(file);
    expect(written).toHaveLength(3);
    expect(files(written)).toEqual([]);
    expect(added.fotosSha256).toEqual([await hex(bytes(1)), null, await hex(bytes(2))]);

    const row = await storedRow(unidadeFlow, added.id);
    const [first, empty, third] = row?.fotos ?? [];
    expect(first).toBeInstanceOf(Blob);
    expect(first).not.toBeInstanceOf(File);
    expect(third).not.toBeInstanceOf(File);
    expect(empty).toBeNull();
    expect(first?.type).toBe('image/jpeg');
    expect(await bytesOf(first)).toEqual(bytes(1));
    expect(await bytesOf(third)).toEqual(bytes(2));
    expect(row?.fotosSha256).toEqual(added.fotosSha256);
  });

  it('collecting a point stores bytes and hashes too; an edit of the fields keeps the hash taken at capture', async () => {
    const point = await records.addPoint(ipFlow, PROJETO.id, AQUI);
    const written = writtenPhotos(ipFlow);
    await records.collect(ipFlow, point.id, {
      coordenadas: AQUI,
      fotos: [cameraFile(3)],
      dados: { possuiIP: true },
    });
    const capture = await hex(bytes(3));
    expect((await storedRow(ipFlow, point.id))?.fotosSha256).toEqual([capture]);
    expect(written).toHaveLength(1);
    expect(files(written)).toEqual([]);

    // The stored bytes change under the app (as the iOS bug does); an edit of the fields only must not take the
    // changed bytes for the photo's own.
    const row = await storedRow(ipFlow, point.id);
    if (!row) throw new Error('no row');
    await db.table(ipFlow.store).put({ ...row, fotos: [photo(99)] });
    const read = await records.getByID(ipFlow, point.id);
    if (!read) throw new Error('no record');
    await records.update(ipFlow, { ...read, dados: { ...read.dados, observacao: 'editado' } });
    const edited = await storedRow(ipFlow, point.id);
    expect(edited?.dados.observacao).toBe('editado');
    expect(edited?.fotosSha256).toEqual([capture]);
    expect(edited?.fotos[0]).not.toBeInstanceOf(File);
  });

  it('a photo taken again in an edit gets the new bytes’ hash, the others keep theirs', async () => {
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [cameraFile(4), cameraFile(5)],
      dados: unidadeDados('11'),
    });
    const read = await records.getByID(unidadeFlow, added.id);
    if (!read) throw new Error('no record');
    const written = writtenPhotos(unidadeFlow);
    await records.update(unidadeFlow, { ...read, fotos: [read.fotos[0] ?? null, cameraFile(6)] });
    expect(written).toHaveLength(2);
    expect(files(written)).toEqual([]);
    const row = await storedRow(unidadeFlow, added.id);
    expect(row?.fotosSha256).toEqual([await hex(bytes(4)), await hex(bytes(6))]);
    expect(await bytesOf(row?.fotos[1])).toEqual(bytes(6));
    expect(row?.fotos[1]).not.toBeInstanceOf(File);
  });

  it('compression replaces each hash with the compressed bytes’ hash', async () => {
    const added = await records.add(posteFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [cameraFile(7), null],
      dados: posteDados,
    });
    const compressed = bytes(70, 500);
    await compressAll(records, FLOWS, async () => new Blob([compressed], { type: 'image/jpeg' }));
    const row = await storedRow(posteFlow, added.id);
    expect(row?.imagensCompactadas).toBe(true);
    expect(await bytesOf(row?.fotos[0])).toEqual(compressed);
    expect(row?.fotosSha256).toEqual([await hex(compressed), null]);
  });

  it('a photo unreadable already when written is kept as it is, without a hash: the save still succeeds', async () => {
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [new UnreadableBlob([bytes(8)], { type: 'image/jpeg' }), cameraFile(9)],
      dados: unidadeDados('12'),
    });
    const row = await storedRow(unidadeFlow, added.id);
    expect(row?.fotos).toHaveLength(2);
    expect(row?.fotosSha256).toEqual([null, await hex(bytes(9))]);
  });

  it('photos prepared as they are taken are read once: Gravar stores those copies and hashes (issue 41)', async () => {
    const [first, second] = [cameraFile(20), cameraFile(21)];
    const reads = [vi.spyOn(first, 'arrayBuffer'), vi.spyOn(second, 'arrayBuffer')];
    records.prepareFotos([first, null, second]);
    records.prepareFotos([first, null, second]); // the form drawn again: nothing read twice
    expect(reads.map((read) => read.mock.calls.length)).toEqual([1, 1]); // read as they were taken
    const written = writtenPhotos(unidadeFlow);
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [first, null, second],
      dados: unidadeDados('13'),
    });
    expect(reads.map((read) => read.mock.calls.length)).toEqual([1, 1]);
    expect(files(written)).toEqual([]);
    expect(added.fotosSha256).toEqual([await hex(bytes(20)), null, await hex(bytes(21))]);
    const row = await storedRow(unidadeFlow, added.id);
    expect(await bytesOf(row?.fotos[0])).toEqual(bytes(20));
    expect(await bytesOf(row?.fotos[2])).toEqual(bytes(21));
    expect(row?.fotosSha256).toEqual(added.fotosSha256);
  });

  it('a photo unreadable when prepared is read again by Gravar', async () => {
    let readable = false;
    class FlakyBlob extends Blob {
      override arrayBuffer(): Promise<ArrayBuffer> {
        return readable ? super.arrayBuffer() : Promise.reject(new DOMException('busy', 'NotReadableError'));
      }
    }
    const flaky = new FlakyBlob([bytes(22)], { type: 'image/jpeg' });
    records.prepareFotos([flaky]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    readable = true;
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [flaky],
      dados: unidadeDados('14'),
    });
    expect(added.fotosSha256).toEqual([await hex(bytes(22))]);
  });

  it('a correction’s photos taken now are stored as bytes with their hashes', async () => {
    const remote: RemoteColeta = {
      _id: '0190a1b2-c3d4-7e5f-8a9b-0000000000c1',
      projeto: PROJETO.id,
      coordenadas: AQUI,
      dataHora: START - 1000,
      sincronizadoEm: START - 500,
      fotos: [],
      ...unidadeDados('13'),
    };
    await records.storeCorrecao(unidadeFlow, {
      fluxo: unidadeFlow.key,
      registro: remote,
      fotos: [],
      revisao: { versao: 1, comentario: 'Foto borrada', campos: [], revisor: 'Ana', em: START },
    } as unknown as Parameters<RecordStore['storeCorrecao']>[1]);
    const written = writtenPhotos(unidadeFlow);
    const corrected = await records.correct(unidadeFlow, remote._id, {
      coordenadas: AQUI,
      fotos: [cameraFile(10)],
      fotosServidor: [],
      dados: unidadeDados('13'),
    });
    expect(corrected.fotosSha256).toEqual([await hex(bytes(10))]);
    expect(written).toHaveLength(1);
    expect(files(written)).toEqual([]);
    expect((await storedRow(unidadeFlow, remote._id))?.fotos[0]).not.toBeInstanceOf(File);
  });
});

/** A server that stores what it is sent and echoes the id; it holds no photo it is asked about. */
class Server implements SyncTransport {
  readonly received = new Map<string, { flow: string; fotos: Map<number, Uint8Array> }>();
  readonly logs: { message: string; extras: Record<string, unknown> }[] = [];
  readonly asked: string[] = [];

  async getProjetos() {
    return [structuredClone(PROJETO)];
  }

  async upload(flow: FlowDefinition, fields: Record<string, string>, fotos: UploadFoto[]) {
    const id = fields.id ?? '';
    const stored = new Map<number, Uint8Array>();
    for (const foto of fotos) {
      if (!('blob' in foto)) throw new Error('named photo: the server holds none');
      stored.set(foto.slot, new Uint8Array(await foto.blob.arrayBuffer()));
    }
    this.received.set(id, { flow: flow.key, fotos: stored });
    return { _id: id, sincronizadoEm: START + 1 };
  }

  async fotosNoServidor(hashes: string[]) {
    this.asked.push(...hashes);
    return new Set<string>();
  }

  async getByZona() {
    return [];
  }

  async getByProjeto() {
    return [];
  }

  async log(message: string, extras: Record<string, unknown>) {
    this.logs.push({ message, extras });
  }
}

describe('the sync checks each photo against its hash at capture', () => {
  let server: Server;
  let statuses: string[];

  beforeEach(() => {
    server = new Server();
    statuses = [];
  });

  const sync = () =>
    new SyncEngine({
      db,
      records,
      transport: server,
      flows: FLOWS,
      tecnico: 'Maria',
      onStatus: (text) => statuses.push(text),
    }).run();

  async function unidade(numero: string, fotos: Blob[]): Promise<LocalColeta> {
    clock += 60_000;
    const added = await records.add(unidadeFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos,
      dados: unidadeDados(numero),
    });
    await records.update(unidadeFlow, { ...added, imagensCompactadas: true });
    const stored = await records.getByID(unidadeFlow, added.id);
    if (!stored) throw new Error('no record');
    return stored;
  }

  async function poste(): Promise<LocalColeta> {
    clock += 60_000;
    const added = await records.add(posteFlow, {
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [photo(50)],
      dados: posteDados,
    });
    await records.update(posteFlow, { ...added, imagensCompactadas: true });
    return added;
  }

  /** The stored bytes of a photo change under the app, its hash at capture stays. */
  async function corruptStored(flow: FlowDefinition, id: string, slot: number) {
    const row = await storedRow(flow, id);
    if (!row) throw new Error('no row');
    const fotos = [...row.fotos];
    fotos[slot] = new Blob([bytes(200 + slot)], { type: 'image/jpeg' });
    await db.table(flow.store).put({ ...row, fotos });
  }

  it('a record whose photo no longer matches its hash stays pending; the others of the flow and the later flows go', async () => {
    const first = await unidade('1', [cameraFile(11), cameraFile(12)]);
    const bad = await unidade('2', [cameraFile(21), cameraFile(22), cameraFile(23)]);
    const last = await unidade('3', [cameraFile(31)]);
    const pole = await poste();
    await corruptStored(unidadeFlow, bad.id, 1);
    const before = await storedRow(unidadeFlow, bad.id);

    const result = await sync();

    const message =
      `Foto 2 de um registro de Unidades (${new Date(bad.dataHora).toLocaleString('pt-BR')}) está corrompida no ` +
      'aparelho e não foi enviada. Abra o registro, tire a foto de novo e sincronize.';
    expect(result).toEqual({ ok: false, uploaded: 3, downloaded: 0, error: message });
    expect(statuses.at(-1)).toBe(`${message} — ${SYNC_TEXTS.failed}`);
    expect(statuses).toContain('Sincronizando postes');
    expect([...server.received.keys()].sort()).toEqual([first.id, last.id, pole.id].sort());
    expect(server.received.get(first.id)?.fotos.get(1)).toEqual(bytes(12));
    // Held back with everything it has.
    const kept = await storedRow(unidadeFlow, bad.id);
    expect(kept).toEqual(before);
    expect((await records.pending(unidadeFlow)).map((record) => record.id)).toEqual([bad.id]);
    expect(await bytesOf(kept?.fotos[0])).toEqual(bytes(21));
    expect(await bytesOf(kept?.fotos[1])).toEqual(bytes(201));
    // Logged as the other sync failures are, with what was found.
    expect(server.logs).toEqual([
      {
        message: 'SINCRONIZACAO UNIDADES',
        extras: {
          tecnico: 'Maria',
          erro: message,
          fotosCorrompidas: [
            { id: bad.id, fotos: [{ foto: 2, esperado: await hex(bytes(22)), lido: await hex(bytes(201)) }] },
          ],
        },
      },
    ]);
  });

  it('a photo the browser can no longer read (NotReadableError) holds its record back the same way', async () => {
    const good = await unidade('1', [cameraFile(41)]);
    const bad = await unidade('2', [cameraFile(42), cameraFile(43)]);
    // fake-indexeddb reads every Blob back readable: the unreadable one is handed out by the store's read.
    const pending = records.pending.bind(records);
    vi.spyOn(records, 'pending').mockImplementation(async (flow) =>
      (await pending(flow)).map((record) =>
        record.id === bad.id
          ? { ...record, fotos: record.fotos.map((blob) => (blob ? new UnreadableBlob([]) : blob)) }
          : record,
      ),
    );

    const result = await sync();

    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      /^Fotos 1 e 2 de um registro de Unidades \(.+\) estão corrompidas no aparelho/,
    );
    expect(result.error).toContain('tire as fotos de novo e sincronize.');
    expect([...server.received.keys()]).toEqual([good.id]);
    expect(server.logs[0]?.extras.fotosCorrompidas).toEqual([
      {
        id: bad.id,
        fotos: [
          { foto: 1, erro: 'NotReadableError: The requested file could not be read.' },
          { foto: 2, erro: 'NotReadableError: The requested file could not be read.' },
        ],
      },
    ]);
    vi.restoreAllMocks();
    expect((await records.pending(unidadeFlow)).map((record) => record.id)).toEqual([bad.id]);
  });

  it('reads and hashes each photo once, for the check and the question about held photos alike', async () => {
    await unidade('1', [cameraFile(61), cameraFile(62)]);
    await unidade('2', [cameraFile(63)]);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    expect((await sync()).ok).toBe(true);
    expect(digest).toHaveBeenCalledTimes(3);
    expect(server.asked.sort()).toEqual(
      [await hex(bytes(61)), await hex(bytes(62)), await hex(bytes(63))].sort(),
    );
  });

  it('a record written before photos had hashes is sent as before', async () => {
    clock += 60_000;
    const legacy: LocalColeta = {
      id: '0190a1b2-c3d4-7e5f-8a9b-0000000000b1',
      projeto: PROJETO.id,
      dataHora: clock,
      coordenadas: AQUI,
      fotos: [photo(71), null, photo(72)],
      imagensCompactadas: true,
      dados: unidadeDados('9'),
    };
    await db.table(unidadeFlow.store).put(legacy);
    const result = await sync();
    expect(result).toEqual({ ok: true, uploaded: 1, downloaded: 0 });
    expect(statuses.at(-1)).toBe(SYNC_TEXTS.done);
    expect(server.received.get(legacy.id)?.fotos).toEqual(
      new Map([
        [0, bytes(71)],
        [2, bytes(72)],
      ]),
    );
    expect(await records.pending(unidadeFlow)).toEqual([]);
  });

  it('a corrupt photo found before a later failure is still named with it', async () => {
    const bad = await unidade('1', [cameraFile(81)]);
    await poste();
    await corruptStored(unidadeFlow, bad.id, 0);
    server.upload = async () => {
      throw new Error('Falha no envio do poste: sem rede');
    };
    const result = await sync();
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(
      /^Foto 1 de um registro de Unidades .* sincronize\. Falha no envio do poste: sem rede$/,
    );
    expect(server.logs.map((entry) => entry.message)).toEqual([
      'SINCRONIZACAO UNIDADES',
      'SINCRONIZACAO POSTES',
    ]);
  });
});

describe('corruptPhotoMessage', () => {
  const record = (minute: number): LocalColeta => ({
    id: `r${minute}`,
    projeto: PROJETO.id,
    dataHora: START + minute * 60_000,
    coordenadas: AQUI,
    fotos: [],
    imagensCompactadas: true,
    dados: {},
  });
  const when = (minute: number) => new Date(START + minute * 60_000).toLocaleString('pt-BR');

  it('names each record of the flow by when it was collected, and its photos from 1', () => {
    expect(
      corruptPhotoMessage(posteFlow, [
        { record: record(1), fotos: [{ slot: 0 }] },
        { record: record(2), fotos: [{ slot: 0 }, { slot: 1 }, { slot: 3 }] },
      ]),
    ).toBe(
      `Fotos de 2 registros de Postes estão corrompidas no aparelho e não foram enviadas: foto 1 do registro de ${when(1)}; ` +
        `fotos 1, 2 e 4 do registro de ${when(2)}. Abra os registros, tire as fotos de novo e sincronize.`,
    );
  });

  it('lists five records, then how many more', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ record: record(i), fotos: [{ slot: 0 }] }));
    expect(corruptPhotoMessage(unidadeFlow, many)).toContain(
      `foto 1 do registro de ${when(4)} e mais 2. Abra`,
    );
  });
});
