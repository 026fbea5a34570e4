// The one write path for collected records on the device (STYLE.md rule 4): screens and sync go through this,
// and each change of a record and its sync state is one Dexie transaction.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { uuidv7 } from '@novus/domain/ids';
import type { NovusDatabase } from './db';

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
  /** Photos taken on the device, by slot (null: empty slot). */
  fotos: (Blob | null)[];
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
  /** The flow's own fields. */
  dados: Record<string, unknown>;
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

/** Pending = not yet on the server; for points, only once collected (SPEC.md section 4). */
export function isPending(flow: FlowDefinition, record: LocalColeta): boolean {
  if (record.sincronizadoEm) return false;
  return flow.lifecycle === 'coleta' || record.coletado === true;
}

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

export class RecordStore {
  constructor(
    private readonly db: NovusDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  private table(flow: FlowDefinition) {
    return this.db.table<LocalColeta, string>(flow.store);
  }

  async add(flow: FlowDefinition, coleta: NewColeta): Promise<LocalColeta> {
    const record: LocalColeta = {
      ...coleta,
      id: uuidv7(this.now()),
      imagensCompactadas: coleta.fotos.every((foto) => foto === null),
    };
    await this.table(flow).add(record);
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
    await this.table(flow).add(record);
    return record;
  }

  /**
   * Gravar on a point (preloaded or drawn): it becomes collected now, pending again, with a new collection
   * id, so the server tells a replay of this collection from another device's collection of the same point.
   */
  async collect(flow: FlowDefinition, id: string, collection: Collection): Promise<LocalColeta> {
    const table = this.table(flow);
    return this.db.transaction('rw', table, async () => {
      const current = await table.get(id);
      if (!current) throw new Error('Registro não encontrado neste aparelho.');
      const { sincronizadoEm: _synced, precisao: _precisao, ...rest } = current;
      const record: LocalColeta = {
        ...rest,
        coordenadas: collection.coordenadas,
        ...(collection.precisao !== undefined ? { precisao: collection.precisao } : {}),
        fotos: collection.fotos,
        imagensCompactadas: collection.imagensCompactadas ?? collection.fotos.every((foto) => foto === null),
        dataHora: this.now(),
        coletado: true,
        coletaId: uuidv7(this.now()),
        revision: (current.revision ?? 0) + 1,
        ...(collection.tecnico ? { tecnico: collection.tecnico } : {}),
        dados: { ...current.dados, ...collection.dados },
      };
      await table.put(record);
      return record;
    });
  }

  getAll(flow: FlowDefinition): Promise<LocalColeta[]> {
    return this.table(flow).toArray();
  }

  /** The project's records of a flow on this device. */
  byProjeto(flow: FlowDefinition, projeto: string): Promise<LocalColeta[]> {
    return this.table(flow).where('projeto').equals(projeto).toArray();
  }

  getByID(flow: FlowDefinition, id: string): Promise<LocalColeta | undefined> {
    return this.table(flow).get(id);
  }

  /** An edit on the device (its fields, its compressed photos). */
  async update(flow: FlowDefinition, record: LocalColeta): Promise<void> {
    const table = this.table(flow);
    await this.db.transaction('rw', table, async () => {
      // Counted from what is stored, not from the caller's copy, which may be older than the sync's.
      const stored = await table.get(record.id);
      await table.put({ ...record, revision: (stored?.revision ?? 0) + 1 });
    });
  }

  /** Deletes a record the technician may delete (isDeletable); a preloaded point never. */
  async deleteRecord(flow: FlowDefinition, id: string): Promise<void> {
    const table = this.table(flow);
    await this.db.transaction('rw', table, async () => {
      const record = await table.get(id);
      if (!record) return;
      if (!isDeletable(flow, record)) throw new DeleteRefusedError();
      await table.delete(id);
    });
  }

  /** Records not yet on the server, newest first. */
  async pending(flow: FlowDefinition): Promise<LocalColeta[]> {
    const all = await this.table(flow).toArray();
    return all.filter((record) => isPending(flow, record)).sort((a, b) => b.dataHora - a.dataHora);
  }

  /** Sync is refused while any pending record anywhere still has uncompressed photos (SPEC.md section 5). */
  async hasUncompressed(flows: readonly FlowDefinition[]): Promise<boolean> {
    for (const flow of flows) {
      const records = await this.table(flow).toArray();
      if (records.some((record) => isPending(flow, record) && !record.imagensCompactadas)) return true;
    }
    return false;
  }

  /**
   * The server confirmed this very record: units, poles, trees, LPT and Grupo A leave the device, the others
   * are marked synchronised. A record edited since it was read for upload is left pending.
   */
  async confirmUploaded(flow: FlowDefinition, sent: LocalColeta): Promise<void> {
    const table = this.table(flow);
    await this.db.transaction('rw', table, async () => {
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
      if (flow.deleteAfterUpload) await table.delete(sent.id);
      else await table.update(sent.id, { sincronizadoEm: this.now() });
    });
  }

  /** Server records join the store; a record still pending (or drawn, not yet collected) is never overwritten. */
  async merge(flow: FlowDefinition, remote: readonly RemoteColeta[]): Promise<number> {
    const table = this.table(flow);
    return this.db.transaction('rw', table, async () => {
      const local = await table.bulkGet(remote.map((record) => record._id));
      const incoming = remote
        .filter((_, index) => {
          const mine = local[index];
          return !mine || Boolean(mine.sincronizadoEm);
        })
        .map((record) => fromRemote(record, this.now()));
      await table.bulkPut(incoming);
      return incoming.length;
    });
  }
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
    dados,
  };
}
