// The device's IndexedDB database: one store per flow plus projeto (SPEC.md sections 3 and 9).
import { Dexie, type EntityTable } from 'dexie';
import { LOCAL_DB_NAME, LOCAL_DB_VERSION } from '@novus/domain/constants';

/** Fields every local record shares; each flow's full shape comes with its form. */
export interface LocalRecord {
  id: string;
  projeto?: string;
  sincronizadoEm?: number;
  dataHora?: number;
}

export interface LocalZona {
  _id: string;
  label: string;
  /** Outer ring of the zone, for drawing it and for the offline tile download. */
  poligono?: { lat: number; lng: number }[];
}

export interface LocalProjeto {
  id: string;
  nome: string;
  fluxos: string[];
  zonas: LocalZona[];
  fuso?: number;
  limiteDownload?: number;
}

/** Store name to Dexie schema: primary key `id` first, then the indexes sync and lists read. */
export const STORE_SCHEMA = {
  projeto: 'id, &nome',
  unidade: 'id, projeto, sincronizadoEm, dataHora',
  poste: 'id, projeto, sincronizadoEm, dataHora',
  ip: 'id, projeto, sincronizadoEm, coletado',
  arvore: 'id, projeto, sincronizadoEm, dataHora',
  lpt: 'id, projeto, sincronizadoEm, coletado',
  grupoA: 'id, projeto, sincronizadoEm, dataHora',
  bdgd: 'id, projeto, sincronizadoEm, coletado',
  fiscalizacao: 'id, projeto, sincronizadoEm, coletado',
  lptv2: 'id, projeto, sincronizadoEm, os',
} as const;

export type StoreName = keyof typeof STORE_SCHEMA;
export const STORE_NAMES = Object.keys(STORE_SCHEMA) as StoreName[]; // keys of a literal object, so the cast is exact

/** Dexie multiplies the declared version by 10 for IndexedDB, so 2.1 opens native version 21. */
export const DEXIE_VERSION = LOCAL_DB_VERSION / 10;

export class NovusDatabase extends Dexie {
  declare projeto: EntityTable<LocalProjeto, 'id'>;
  declare unidade: EntityTable<LocalRecord, 'id'>;
  declare poste: EntityTable<LocalRecord, 'id'>;
  declare ip: EntityTable<LocalRecord, 'id'>;
  declare arvore: EntityTable<LocalRecord, 'id'>;
  declare lpt: EntityTable<LocalRecord, 'id'>;
  declare grupoA: EntityTable<LocalRecord, 'id'>;
  declare bdgd: EntityTable<LocalRecord, 'id'>;
  declare fiscalizacao: EntityTable<LocalRecord, 'id'>;
  lptv2!: EntityTable<LocalRecord, 'id'>;

  constructor(name: string = LOCAL_DB_NAME) {
    super(name);
    this.version(DEXIE_VERSION).stores(STORE_SCHEMA);
  }
}
