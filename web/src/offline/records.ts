// The one write path for collected records on the device (STYLE.md rule 4): screens and sync go through this,
// and each change of a record and its sync state is one Dexie transaction.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { CorrecaoRemota } from '@novus/domain/api/revisao';
import { uuidv7 } from '@novus/domain/ids';
import type { Correcao } from '@novus/domain/revisao';
import type { Table } from 'dexie';
import type { CopiaStore } from './copias';
import type { NovusDatabase } from './db';
import { type Mudancas, PontosMapaStore } from './pontos-mapa';
import { isPending } from './pending';
import { reopening } from './reopen';

export interface LatLng {
  lat: number;
  lng: number;
}

/** A record collected on the device (or downloaded from the server after a sync). */
export interface LocalColeta {
  id: string;
  projeto: string;
  dataHora: number;
  coordenadas: LatLng;
  /** GPS accuracy in metres when the point was taken. */
  precisao?: number;
  /**
   * Photos taken on the device, by slot (null: empty slot). Stored as Blobs made from their bytes, never the
   * camera's File objects (iOS 18 corrupts Files kept in IndexedDB): see RecordStore's photo writes. Where the engine
   * refuses Blobs (a private window) IndexedDB holds their bytes instead, and reads give Blobs back (photo-encoding.ts).
   */
  fotos: (Blob | null)[];
  /**
   * The SHA-256 (hex) of each photo's bytes when it was written, by slot: the sync checks the bytes it reads
   * against it before sending. null: empty slot, or a photo unreadable already when written. Records written
   * before issue 25 have none.
   */
  fotosSha256?: (string | null)[];
  /**
   * The SHA-256 (hex) of each photo as the camera gave it, by slot, kept once 'Compactar Imagens' replaced it with
   * its compressed and stamped copy (issue 26): the server stores it beside the photo.
   */
  fotosOriginaisSha256?: (string | null)[];
  /** Photos already on the server (records downloaded by zone). */
  fotosUrls?: string[];
  imagensCompactadas: boolean;
  /** Set when the server has the record: pending records have none (SPEC.md section 4). */
  sincronizadoEm?: number;
  tecnico?: string;
  /** Point flows (SPEC.md section 4 'Point lifecycle'): collected, drawn in the app, loaded from a file. */
  coletado?: boolean;
  adicionadoApp?: boolean;
  carregadoBackoffice?: boolean;
  /** The id of this collection of a point, made when the technician saved it (two devices, one point). */
  coletaId?: string;
  /** The server holds other collections of this point besides its current value. */
  conflito?: boolean;
  /** Bumped by every change on the device, so an upload in flight no longer confirms a record edited since. */
  revision?: number;
  /**
   * The record's revision on the server (issue 24): as downloaded, or, once a correction is saved, the one it
   * will be sent as (the rejected revision + 1).
   */
  versao?: number;
  /** The reviewer rejected this record and asked for a correction (issue 24); cleared once the server has it. */
  correcao?: Correcao;
  /**
   * A correction's photos still on the server, by slot: kept ones are sent by SHA-256, not bytes. `blob` is
   * their copy fetched by the sync, so the form shows them offline; a photo taken in the slot replaces it.
   */
  fotosServidor?: FotoServidor[];
  /** The flow's own fields. */
  dados: Record<string, unknown>;
}

export interface FotoServidor {
  slot: number;
  hash: string;
  url: string;
  blob?: Blob;
}

export type NewColeta = Omit<LocalColeta, 'id' | 'imagensCompactadas' | 'sincronizadoEm'>;

/** What a technician saves on a point: its fields, photos and where it is. */
export interface Collection {
  coordenadas: LatLng;
  precisao?: number;
  fotos: (Blob | null)[];
  /** The photos are the ones already compressed (unchanged since); default: compressed only when none. */
  imagensCompactadas?: boolean;
  tecnico?: string;
  dados: Record<string, unknown>;
}

/** What the technician saves on a correction: a collection, plus the server's photos kept (issue 24). */
export interface Revision extends Collection {
  fotosServidor: FotoServidor[];
}

/** A record as GET /api/{flow}/getByZona answers it. */
export interface RemoteColeta {
  _id: string;
  projeto: string;
  coordenadas: { lat: number; lng: number } | null;
  dataHora: number | null;
  sincronizadoEm: number | null;
  fotos: string[];
  tecnico?: string | null;
  [field: string]: unknown;
}

export { isPending };

/** Only points drawn in the app may be deleted; units and poles always, after confirmation (SPEC.md 4). */
export function isDeletable(flow: FlowDefinition, record: LocalColeta): boolean {
  if (flow.lifecycle === 'coleta') return true;
  return record.adicionadoApp === true && !record.sincronizadoEm;
}

export class DeleteRefusedError extends Error {
  constructor() {
    super('Só um ponto desenhado neste aparelho e ainda não sincronizado pode ser excluído.');
    this.name = 'DeleteRefusedError';
  }
}

/** The SHA-256 of these bytes, hex (the server's content-addressed store names photos so); null without WebCrypto. */
export async function sha256HexOf(bytes: ArrayBuffer): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null; // an insecure context (http on a LAN): nothing to compare, nothing refused
  const digest = await subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A record's photos as they are stored: Blobs made from their bytes, and those bytes' SHA-256, slot by slot. */
export interface StoredFotos {
  fotos: (Blob | null)[];
  fotosSha256: (string | null)[];
}

const isFile = (blob: Blob) => typeof File !== 'undefined' && blob instanceof File;

interface StoredFoto {
  blob: Blob;
  hash: string;
}

/** A photo read for storing: its copy, and its hash unless WebCrypto gave none. */
type ReadFoto = Omit<StoredFoto, 'hash'> & { hash: string | null };

export class RecordStore {
  /**
   * Photos this store wrote or read, each with its stored copy and the SHA-256 computed when it was written: a
   * photo written again unchanged (an edit of the fields only) keeps the hash taken at capture, and is not read.
   */
  private readonly fotosKnown = new WeakMap<Blob, StoredFoto>();
  /** The map's points of each flow and project (issue 41), brought up to date after every write here. */
  readonly mapa: PontosMapaStore;
  /** Photos being read and hashed now (prepareFotos, or a save): a save waits for that reading, never starts another. */
  private readonly fotosReading = new WeakMap<Blob, Promise<ReadFoto | null>>();

  constructor(
    private readonly db: NovusDatabase,
    private readonly now: () => number = Date.now,
    /** Where what was sent is kept for a while (issue 39); without it, nothing is kept (SPEC.md 4 as it was). */
    readonly copias?: CopiaStore,
    mapa?: PontosMapaStore,
  ) {
    this.mapa = mapa ?? new PontosMapaStore(db, undefined, now);
  }

  private table(flow: FlowDefinition) {
    return this.db.table<LocalColeta, string>(flow.store);
  }

  /** A read or a write, run once more on a reopened database when the connection was lost under it (issue 25). */
  private reopening<T>(run: () => Promise<T>): Promise<T> {
    return reopening(this.db, run);
  }

  /**
   * A read-write transaction of one flow's store, retried whole on a reopened database (issue 25), and once more with
   * photos as bytes where the engine refuses Blobs (issue 40). `written` is what it writes from outside the
   * transaction (records, photos): their bytes are read before it then; what it reads inside comes with them already.
   */
  private transaction<T>(
    flow: FlowDefinition,
    table: Table<LocalColeta, string>,
    written: unknown,
    scope: (mudancas: Mudancas) => Promise<T>,
  ): Promise<T> {
    // What it changes reaches the map's points once it committed (pontos-mapa.ts).
    return this.mapa.escrevendo(flow, (mudancas) =>
      this.writing(written, () =>
        reopening(this.db, () =>
          this.db.transaction('rw', table, () => {
            // Run again (a reopened connection, photos as bytes): only this run's changes count.
            mudancas.limpar();
            return scope(mudancas);
          }),
        ),
      ),
    );
  }

  /** A write that may hold photos, stored as this device stores them (PhotoEncoding.storing). */
  private writing<T>(written: unknown, write: () => Promise<T>): Promise<T> {
    const { fotos } = this.db;
    return fotos.storing(async () => {
      await fotos.prepare(written);
      return write();
    });
  }

  /**
   * The photos to store: each a Blob made from its bytes (a File kept in IndexedDB may read back corrupt on iOS 18),
   * with the SHA-256 of those bytes. Called before the write's transaction: awaiting anything but IndexedDB inside
   * one commits it early. A photo already unreadable is kept as it is, without a hash: the sync reports it.
   */
  private async storedFotos(fotos: readonly (Blob | null)[]): Promise<StoredFotos> {
    // All read at once: those prepared as they were taken are done already, the others overlap.
    const kept = await Promise.all(fotos.map((foto) => (foto ? this.storedFoto(foto) : null)));
    return {
      fotos: fotos.map((foto, slot) => kept[slot]?.blob ?? foto ?? null),
      fotosSha256: kept.map((stored) => stored?.hash ?? null),
    };
  }

  /**
   * Photos just taken (the wizard calls this as they arrive): their stored copies and hashes are made now, while the
   * technician fills the form, so Gravar finds them done (issue 41: reading and hashing three 12 MP photos was most
   * of a save). Nothing is written: a photo dropped before Gravar is only a copy in memory until it is collected.
   */
  prepareFotos(fotos: readonly (Blob | null)[]): void {
    // a failure here is the save's to report, when it reads the photo again
    for (const foto of fotos) if (foto) this.storedFoto(foto).catch(() => undefined);
  }

  private storedFoto(foto: Blob): Promise<ReadFoto | null> {
    const known = this.fotosKnown.get(foto);
    if (known) return Promise.resolve(known);
    let reading = this.fotosReading.get(foto);
    if (!reading) {
      // An unreadable photo, or one read without WebCrypto, is read again by the next save, as before.
      reading = this.readFoto(foto).finally(() => this.fotosReading.delete(foto));
      this.fotosReading.set(foto, reading);
    }
    return reading;
  }

  private async readFoto(foto: Blob): Promise<ReadFoto | null> {
    let bytes: ArrayBuffer;
    try {
      bytes = await foto.arrayBuffer();
    } catch {
      return null;
    }
    const blob = this.db.fotos.blobOf(bytes, foto.type);
    const hash = await sha256HexOf(bytes);
    if (hash === null) return { blob, hash };
    const stored = { blob, hash };
    this.fotosKnown.set(foto, stored);
    this.fotosKnown.set(blob, stored);
    return stored;
  }

  /** Records read from the store: their photos are known with the hashes stored beside them. */
  private known<T extends LocalColeta | undefined>(records: T[]): T[] {
    for (const record of records) {
      record?.fotos.forEach((blob, slot) => {
        const hash = record.fotosSha256?.[slot];
        if (blob && typeof hash === 'string' && !isFile(blob)) this.fotosKnown.set(blob, { blob, hash });
      });
    }
    return records;
  }

  async add(flow: FlowDefinition, coleta: NewColeta): Promise<LocalColeta> {
    const fotos = await this.storedFotos(coleta.fotos);
    const record: LocalColeta = {
      ...coleta,
      ...fotos,
      id: uuidv7(this.now()),
      imagensCompactadas: coleta.fotos.every((foto) => foto === null),
    };
    await this.mapa.escrevendo(flow, async (mudancas) => {
      await this.writing(record, () => this.reopening(() => this.table(flow).add(record)));
      mudancas.gravados.push(record);
    });
    return record;
  }

  /** A point drawn on the map: not collected yet, added in the app, not from the back office. */
  async addPoint(flow: FlowDefinition, projeto: string, at: LatLng & { precisao?: number }) {
    const { precisao, ...coordenadas } = at;
    const record: LocalColeta = {
      id: uuidv7(this.now()),
      projeto,
      dataHora: this.now(),
      coordenadas,
      ...(precisao !== undefined ? { precisao } : {}),
      fotos: [],
      imagensCompactadas: true,
      coletado: false,
      adicionadoApp: true,
      carregadoBackoffice: false,
      dados: {},
    };
    await this.mapa.escrevendo(flow, async (mudancas) => {
      await this.reopening(() => this.table(flow).add(record));
      mudancas.gravados.push(record);
    });
    return record;
  }

  /**
   * Gravar on a point (preloaded or drawn): it becomes collected now, pending again, with a new collection
   * id, so the server tells a replay of this collection from another device's collection of the same point.
   */
  async collect(flow: FlowDefinition, id: string, collection: Collection): Promise<LocalColeta> {
    const fotos = await this.storedFotos(collection.fotos);
    const table = this.table(flow);
    return this.transaction(flow, table, fotos, async (mudancas) => {
      const current = await table.get(id);
      if (!current) throw new Error('Registro não encontrado neste aparelho.');
      const { sincronizadoEm: _synced, precisao: _precisao, ...rest } = current;
      const record: LocalColeta = {
        ...rest,
        coordenadas: collection.coordenadas,
        ...(collection.precisao !== undefined ? { precisao: collection.precisao } : {}),
        ...fotos,
        imagensCompactadas: collection.imagensCompactadas ?? collection.fotos.every((foto) => foto === null),
        dataHora: this.now(),
        coletado: true,
        coletaId: uuidv7(this.now()),
        revision: (current.revision ?? 0) + 1,
        ...(collection.tecnico ? { tecnico: collection.tecnico } : {}),
        dados: { ...current.dados, ...collection.dados },
      };
      await table.put(record);
      mudancas.gravados.push(record);
      return record;
    });
  }

  async getAll(flow: FlowDefinition): Promise<LocalColeta[]> {
    return this.known(await this.reopening(() => this.table(flow).toArray()));
  }

  /** The project's records of a flow on this device. */
  async byProjeto(flow: FlowDefinition, projeto: string): Promise<LocalColeta[]> {
    return this.known(
      await this.reopening(() => this.table(flow).where('projeto').equals(projeto).toArray()),
    );
  }

  async getByID(flow: FlowDefinition, id: string): Promise<LocalColeta | undefined> {
    const [record] = this.known([await this.reopening(() => this.table(flow).get(id))]);
    return record;
  }

  /**
   * An edit on the device (its fields, its compressed photos). The photos' hashes are the stored ones for photos
   * unchanged since read, those of the new bytes for the others (a compressed photo: the compressed bytes').
   */
  async update(flow: FlowDefinition, record: LocalColeta): Promise<void> {
    const fotos = await this.storedFotos(record.fotos);
    const table = this.table(flow);
    await this.transaction(flow, table, [record, fotos], async (mudancas) => {
      // Counted from what is stored, not from the caller's copy, which may be older than the sync's.
      const stored = await table.get(record.id);
      const updated = { ...record, ...fotos, revision: (stored?.revision ?? 0) + 1 };
      await table.put(updated);
      mudancas.gravados.push(updated);
    });
  }

  /** Deletes a record the technician may delete (isDeletable); a preloaded point never. */
  async deleteRecord(flow: FlowDefinition, id: string): Promise<void> {
    const table = this.table(flow);
    await this.transaction(flow, table, null, async (mudancas) => {
      const record = await table.get(id);
      if (!record) return;
      if (!isDeletable(flow, record)) throw new DeleteRefusedError();
      await table.delete(id);
      mudancas.removidos.push(record);
    });
  }

  /** Records not yet on the server, newest first. */
  async pending(flow: FlowDefinition): Promise<LocalColeta[]> {
    const all = await this.reopening(() => this.table(flow).toArray());
    return this.known(all.filter((record) => isPending(flow, record))).sort(
      (a, b) => b.dataHora - a.dataHora,
    );
  }

  /** Sync is refused while any pending record anywhere still has uncompressed photos (SPEC.md section 5). */
  async hasUncompressed(flows: readonly FlowDefinition[]): Promise<boolean> {
    for (const flow of flows) {
      const records = await this.reopening(() => this.table(flow).toArray());
      if (records.some((record) => isPending(flow, record) && !record.imagensCompactadas)) return true;
    }
    return false;
  }

  /**
   * The server confirmed this very record: units, poles, trees, LPT and Grupo A leave the device, the others
   * are marked synchronised. A record edited since it was read for upload is left pending. What leaves is kept
   * first, as sent, among the copies (issue 39), with who sent it (`tecnico`): two databases share no transaction,
   * so a crash between the two writes leaves the record pending beside its copy, and the next sync's upload (the
   * same id: idempotent) settles it. A copy that cannot be written (a full device) does not hold the record back:
   * the server has it, and syncing is how a full phone frees space.
   */
  async confirmUploaded(flow: FlowDefinition, sent: LocalColeta, tecnico = ''): Promise<void> {
    if (flow.deleteAfterUpload) await this.copias?.keep(flow, sent, tecnico).catch(() => undefined);
    const table = this.table(flow);
    await this.transaction(flow, table, null, async (mudancas) => {
      const current = await table.get(sent.id);
      // An edit keeps dataHora (and a unit has no coletaId): only the revision tells it from what was sent.
      if (
        !current ||
        current.revision !== sent.revision ||
        current.dataHora !== sent.dataHora ||
        current.coletaId !== sent.coletaId
      ) {
        return;
      }
      if (flow.deleteAfterUpload) {
        await table.delete(sent.id);
        mudancas.removidos.push(current);
        return;
      }
      // A correction the server now holds is done: the record is an ordinary synchronised one again.
      const { correcao: _correcao, fotosServidor: _fotos, ...rest } = current;
      const synced = { ...rest, sincronizadoEm: this.now() };
      await table.put(synced);
      mudancas.gravados.push(synced);
    });
  }

  /**
   * Server records join the store; a record still pending (or drawn, not yet collected) is never overwritten,
   * nor one waiting for its correction (the corrections' own list keeps it, storeCorrecao and clearCorrecoes).
   */
  async merge(flow: FlowDefinition, remote: readonly RemoteColeta[]): Promise<number> {
    const table = this.table(flow);
    return this.transaction(flow, table, null, async (mudancas) => {
      const local = await table.bulkGet(remote.map((record) => record._id));
      const incoming = remote
        .filter((_, index) => {
          const mine = local[index];
          return !mine || (Boolean(mine.sincronizadoEm) && !mine.correcao);
        })
        .map((record) => fromRemote(record, this.now()));
      // A project the device held nothing of (its first sync): its map points are all here (a count reads no record).
      for (const projeto of new Set(incoming.map((record) => record.projeto))) {
        if ((await table.where('projeto').equals(projeto).count()) === 0) mudancas.novos.add(projeto);
      }
      await table.bulkPut(incoming);
      for (const record of incoming) mudancas.gravados.push(record);
      return incoming.length;
    });
  }

  /**
   * A correction the reviewer asked for joins the store as the server holds the record, with the reviewer's word
   * and its photos on the server, not pending. A record pending on the device (maybe this very correction, saved
   * and not yet sent) is never overwritten: false. Photos already fetched for an earlier sync are kept by hash.
   */
  async storeCorrecao(flow: FlowDefinition, correcao: CorrecaoRemota): Promise<boolean> {
    const table = this.table(flow);
    return this.transaction(flow, table, null, async (mudancas) => {
      const mine = await table.get(correcao.registro._id);
      if (mine && !mine.sincronizadoEm) return false;
      const fetched = new Map(
        (mine?.fotosServidor ?? []).flatMap((foto) => (foto.blob ? [[foto.hash, foto.blob] as const] : [])),
      );
      const fotosServidor = correcao.fotos.map(({ slot, hash, url }): FotoServidor => {
        const blob = fetched.get(hash);
        return { slot, hash, url, ...(blob ? { blob } : {}) };
      });
      const { versao, comentario, campos, revisor, em } = correcao.revisao;
      const stored: LocalColeta = {
        ...fromRemote(remoteOfCorrecao(correcao), this.now()),
        versao,
        correcao: { versao, comentario, campos, revisor, em },
        fotosServidor,
        revision: (mine?.revision ?? 0) + 1,
      };
      await table.put(stored);
      mudancas.gravados.push(stored);
      return true;
    });
  }

  /**
   * Corrections the server no longer lists (approved since, or sent from another device) leave: a flow whose
   * records leave the device after upload loses its copy, the others keep the record without the reviewer's word
   * (the zone download refreshes it). A correction saved and not yet sent stays until the server has it.
   */
  async clearCorrecoes(flow: FlowDefinition, listed: ReadonlySet<string>): Promise<number> {
    const table = this.table(flow);
    return this.transaction(flow, table, null, async (mudancas) => {
      const stale = await table
        .filter(
          (record) =>
            record.correcao !== undefined && Boolean(record.sincronizadoEm) && !listed.has(record.id),
        )
        .toArray();
      for (const record of stale) {
        if (flow.deleteAfterUpload) {
          await table.delete(record.id);
          mudancas.removidos.push(record);
          continue;
        }
        const { correcao: _correcao, fotosServidor: _fotos, ...rest } = record;
        const cleared = { ...rest, revision: (record.revision ?? 0) + 1 };
        await table.put(cleared);
        mudancas.gravados.push(cleared);
      }
      return stale.length;
    });
  }

  /** The flow's records with a correction asked for, done or not (a full scan: there is no index on it). */
  async correcoes(flow: FlowDefinition): Promise<LocalColeta[]> {
    return this.known(
      await this.reopening(() =>
        this.table(flow)
          .filter((record) => record.correcao !== undefined)
          .toArray(),
      ),
    );
  }

  /** The bytes of a correction's server photo, fetched by the sync so the form shows it offline. */
  async keepFotoServidor(flow: FlowDefinition, id: string, hash: string, fetched: Blob): Promise<void> {
    // Its bytes, not the network's Blob, as every photo kept on the device (read before the transaction).
    const blob = this.db.fotos.blobOf(await fetched.arrayBuffer(), fetched.type);
    const table = this.table(flow);
    await this.transaction(flow, table, blob, async () => {
      const record = await table.get(id);
      if (!record?.fotosServidor?.some((foto) => foto.hash === hash)) return;
      const fotosServidor = record.fotosServidor.map((foto) =>
        foto.hash === hash ? { ...foto, blob } : foto,
      );
      // What is sent is the hash, unchanged: not an edit, so an upload in flight still confirms (no revision bump).
      await table.put({ ...record, fotosServidor });
    });
  }

  /**
   * Gravar on a correction (issue 24): the record becomes pending as the rejected revision + 1, with the photos
   * taken now and the server's photos kept (by slot; a photo taken in a slot replaces the server's). A point is
   * collected again (a new collection id).
   */
  async correct(flow: FlowDefinition, id: string, revision: Revision): Promise<LocalColeta> {
    const fotos = await this.storedFotos(revision.fotos);
    const table = this.table(flow);
    return this.transaction(flow, table, [fotos, revision.fotosServidor], async (mudancas) => {
      const current = await table.get(id);
      if (!current) throw new Error('Registro não encontrado neste aparelho.');
      if (!current.correcao) throw new Error('Este registro não tem correção pedida.');
      const { sincronizadoEm: _synced, precisao: _precisao, ...rest } = current;
      const taken = new Set(revision.fotos.flatMap((foto, slot) => (foto ? [slot] : [])));
      const record: LocalColeta = {
        ...rest,
        coordenadas: revision.coordenadas,
        ...(revision.precisao !== undefined ? { precisao: revision.precisao } : {}),
        ...fotos,
        imagensCompactadas: revision.imagensCompactadas ?? revision.fotos.every((foto) => foto === null),
        fotosServidor: revision.fotosServidor.filter((foto) => !taken.has(foto.slot)),
        versao: current.correcao.versao + 1,
        ...(flow.lifecycle === 'coleta' ? {} : { coletado: true, coletaId: uuidv7(this.now()) }),
        ...(revision.tecnico ? { tecnico: revision.tecnico } : {}),
        revision: (current.revision ?? 0) + 1,
        dados: { ...current.dados, ...revision.dados },
      };
      await table.put(record);
      mudancas.gravados.push(record);
      return record;
    });
  }
}

const isLatLng = (value: unknown): value is LatLng =>
  typeof value === 'object' &&
  value !== null &&
  'lat' in value &&
  'lng' in value &&
  typeof value.lat === 'number' &&
  typeof value.lng === 'number';

/** A correction's record in the shape of a download's, its photos the correction's. */
function remoteOfCorrecao({ registro, fotos }: CorrecaoRemota): RemoteColeta {
  return {
    ...registro,
    coordenadas: isLatLng(registro.coordenadas) ? registro.coordenadas : null,
    dataHora: typeof registro.dataHora === 'number' ? registro.dataHora : null,
    sincronizadoEm: typeof registro.sincronizadoEm === 'number' ? registro.sincronizadoEm : null,
    fotos: fotos.map((foto) => foto.url),
  };
}

/** Fields of a server record that are not the flow's own (`dados`). */
const REMOTE_KEYS = new Set([
  '_id',
  'projeto',
  'nomeProjeto',
  'zona',
  'coordenadas',
  'localizacao',
  'dataHora',
  'sincronizadoEm',
  'fotos',
  'tecnico',
  'coletado',
  'adicionadoApp',
  'carregadoBackoffice',
  'precisao',
  'conflito',
  'coletas',
  // LPT Agiltec's name for coletado: the device reads coletado, which its own collection also sets.
  'possuiColeta',
  // Issue 24: the revision is the record's own (`versao`), its review state and flags the back office's.
  'versao',
  'revisao',
  'flags',
]);

export function fromRemote(remote: RemoteColeta, now: number): LocalColeta {
  const dados = Object.fromEntries(Object.entries(remote).filter(([key]) => !REMOTE_KEYS.has(key)));
  const flag = (key: string) => (typeof remote[key] === 'boolean' ? { [key]: remote[key] } : {});
  return {
    id: remote._id,
    projeto: remote.projeto,
    dataHora: remote.dataHora ?? 0,
    coordenadas: remote.coordenadas ?? { lat: 0, lng: 0 },
    ...(typeof remote.precisao === 'number' ? { precisao: remote.precisao } : {}),
    fotos: [],
    fotosUrls: remote.fotos,
    imagensCompactadas: true,
    sincronizadoEm: remote.sincronizadoEm ?? now,
    ...(remote.tecnico ? { tecnico: remote.tecnico } : {}),
    ...flag('coletado'),
    ...flag('adicionadoApp'),
    ...flag('carregadoBackoffice'),
    ...flag('conflito'),
    ...(typeof remote.versao === 'number' ? { versao: remote.versao } : {}),
    dados,
  };
}
