// The one write path for collected records on the device (STYLE.md rule 4): screens and sync go through this.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { uuidv7 } from '@novus/domain/ids';
import type { NovusDatabase, StoreName } from './db';

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
  /** The flow's own fields. */
  dados: Record<string, unknown>;
}

export type NewColeta = Omit<LocalColeta, 'id' | 'imagensCompactadas' | 'sincronizadoEm'>;

export class RecordStore {
  constructor(
    private readonly db: NovusDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  private table(flow: FlowDefinition) {
    // The registry names Dexie stores that NovusDatabase declares (STORE_SCHEMA has every flow's store).
    return this.db.table<LocalColeta, string>(flow.store as StoreName);
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

  getAll(flow: FlowDefinition): Promise<LocalColeta[]> {
    return this.table(flow).toArray();
  }

  getByID(flow: FlowDefinition, id: string): Promise<LocalColeta | undefined> {
    return this.table(flow).get(id);
  }

  async update(flow: FlowDefinition, record: LocalColeta): Promise<void> {
    await this.table(flow).put(record);
  }

  async deleteRecord(flow: FlowDefinition, id: string): Promise<void> {
    await this.table(flow).delete(id);
  }

  /** Records not yet on the server, newest first. */
  async pending(flow: FlowDefinition): Promise<LocalColeta[]> {
    const all = await this.table(flow).toArray();
    return all.filter((record) => !record.sincronizadoEm).sort((a, b) => b.dataHora - a.dataHora);
  }

  /** Sync is refused while any record anywhere still has uncompressed photos (SPEC.md section 5). */
  async hasUncompressed(flows: readonly FlowDefinition[]): Promise<boolean> {
    for (const flow of flows) {
      const records = await this.table(flow).toArray();
      if (records.some((record) => !record.sincronizadoEm && !record.imagensCompactadas)) return true;
    }
    return false;
  }
}
