// The device's IndexedDB database: one store per flow of the registry plus projeto (SPEC.md sections 3 and 9).
import { Dexie, type EntityTable } from 'dexie';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { LOCAL_DB_NAME, LOCAL_DB_VERSION } from '@novus/domain/constants';
import type { Lifecycle } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import type { DatabaseState } from './db-state';
import { PhotoEncoding } from './photo-encoding';

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
  /** The project's basemap package (issue 23), known offline: 'Download do Mapa' and the field map draw from it. */
  mapaBase?: MapaBase | null;
  /** Photos get the stamp (issue 26) unless the project turned it off: absent (an older server) means on. */
  carimboFotos?: boolean;
  /** How many days the phone keeps a copy of what it sent of this project (issue 39); absent: RETENCAO_COPIAS_DIAS. */
  retencaoCopiasDias?: number;
}

/** A flow's indexes: what sync and the lists read (points by their collected state, LPT Agiltec by OS). */
const INDEXES: Record<Lifecycle, string> = {
  coleta: 'id, projeto, sincronizadoEm, dataHora',
  ponto: 'id, projeto, sincronizadoEm, coletado',
  lista: 'id, projeto, sincronizadoEm, os',
};

/** Store name to Dexie schema: projeto plus one store per flow of the registry, primary key `id` first. */
export const STORE_SCHEMA: Record<string, string> = {
  projeto: 'id, &nome',
  ...Object.fromEntries(FLOWS.map((flow) => [flow.store, INDEXES[flow.lifecycle]])),
};

export const STORE_NAMES = Object.keys(STORE_SCHEMA);

/** Dexie multiplies the declared version by 10 for IndexedDB, so 2.1 opens native version 21. */
export const DEXIE_VERSION = LOCAL_DB_VERSION / 10;

type Listener = () => void;

export class NovusDatabase extends Dexie {
  declare projeto: EntityTable<LocalProjeto, 'id'>;
  /** How this device stores photos (issue 40): shared with NovusCopias, so both learn it from one refused write. */
  readonly fotos: PhotoEncoding;
  private state: DatabaseState = 'fechado';
  private readonly listeners = new Set<Listener>();

  constructor(name: string = LOCAL_DB_NAME, fotos: PhotoEncoding = new PhotoEncoding()) {
    // 'strict': a save is reported only once the browser wrote it to disk, not merely to its cache.
    super(name, { chromeTransactionDurability: 'strict' });
    this.version(DEXIE_VERSION).stores(STORE_SCHEMA);
    this.fotos = fotos;
    fotos.install(this);
    this.on('blocked', () => this.setState('bloqueado'));
    // Reopened after another tab's upgrade it still runs the older code: it keeps saying so until reloaded.
    this.on('ready', () => this.state !== 'substituido' && this.setState('aberto'), true);
    // Dexie's own handler closes the connection so the other tab's upgrade goes on; this one only says so.
    this.on('versionchange', (event) => {
      if (event.newVersion !== null && event.newVersion > 0) this.setState('substituido');
    });
  }

  getState = (): DatabaseState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setState(state: DatabaseState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
