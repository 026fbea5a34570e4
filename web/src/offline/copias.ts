// The phones as the last backup (issue 39, DESIGN.md 'Sync protocol'): what the device sent of the flows that leave
// it after upload, kept whole (photos included) for a retention window, so each sync can ask the server what it lacks
// and send it again. A database of its own: SPEC.md fixes 'Novus' at version 21, and the copies are no part of what
// the technician sees there (pending list, banners, galleries).
import { Dexie, type EntityTable } from 'dexie';
import { COPIAS_DB_NAME, RETENCAO_COPIAS_DIAS } from '@novus/domain/constants';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import type { LocalProjeto } from './db';
import { PhotoEncoding, storedSize } from './photo-encoding';
import type { LocalColeta } from './records';
import { reopening } from './reopen';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Past this share of the browser's quota the copies give way, oldest first, until the estimate is back under it: past
 * the storage panel's warning (80 %), before the browser refuses a save. What is pending lives in Novus, never here,
 * so trimming never touches a record the server has not confirmed. The estimate is read once per sync and each copy's
 * recorded size taken off it (browsers update their estimate lazily).
 */
export const COPIAS_LIMITE_USO = 0.9;

/** A record as the device sent it and the server confirmed it. */
export interface Copia {
  /** The record's id (one copy per record: sent again, the newer copy replaces it). */
  id: string;
  fluxo: Fluxo;
  projeto: string;
  /** Who sent it: the technician the sync ran for. Only their syncs ask about it or send it again. */
  tecnico: string;
  /** When the server confirmed it (the device's clock). */
  enviadoEm: number;
  /** What it takes on the device, about: its photos' bytes and its fields as JSON. */
  bytes: number;
  registro: LocalColeta;
}

/**
 * The browser's storage estimate as storage.ts reads it (its StorageUsage), restated so this module, which the
 * server's tests load, stays clear of the DOM's storage types.
 */
export interface UsoDoEspaco {
  usedBytes: number;
  quotaBytes: number;
}

export interface CopiasResumo {
  registros: number;
  bytes: number;
}

/** How many days the copies of a project are kept. */
export type RetencaoCopias = (projeto: string) => number;

/**
 * Each project's window as the device has it (the project form's setting, downloaded with the projects); for a project
 * it does not have (out of this technician's zones, another technician's on a shared phone, cached by an older app),
 * RETENCAO_COPIAS_DIAS.
 */
export function retencaoCopiasDias(
  projetos: readonly Pick<LocalProjeto, 'id' | 'retencaoCopiasDias'>[],
): RetencaoCopias {
  const dias = new Map(projetos.map((projeto) => [projeto.id, projeto.retencaoCopiasDias]));
  return (projeto) => dias.get(projeto) ?? RETENCAO_COPIAS_DIAS;
}

export class CopiasDatabase extends Dexie {
  declare copia: EntityTable<Copia, 'id'>;
  /** How this device stores photos (issue 40), as Novus does. */
  readonly fotos: PhotoEncoding;

  constructor(name: string = COPIAS_DB_NAME, fotos: PhotoEncoding = new PhotoEncoding()) {
    // 'strict' as Novus: a copy is on disk before the record it stands for leaves Novus.
    super(name, { chromeTransactionDurability: 'strict' });
    this.version(1).stores({ copia: 'id, tecnico, enviadoEm' });
    this.fotos = fotos;
    fotos.install(this);
  }
}

/** What a copy takes on the device: its photos' bytes (those it holds, Blobs or bytes) and the rest as JSON. */
function bytesOf(registro: LocalColeta): number {
  const fotos = [...registro.fotos, ...(registro.fotosServidor ?? []).map((foto) => foto.blob ?? null)];
  const { fotos: _fotos, fotosServidor: _servidor, ...campos } = registro;
  return fotos.reduce((sum, foto) => sum + storedSize(foto), 0) + JSON.stringify(campos).length;
}

export class CopiaStore {
  readonly db: CopiasDatabase;

  constructor(
    db: CopiasDatabase = new CopiasDatabase(),
    private readonly now: () => number = Date.now,
  ) {
    this.db = db;
  }

  private reopening<T>(run: () => Promise<T>): Promise<T> {
    return reopening(this.db, run);
  }

  /**
   * Keeps what the server just confirmed: written before the record leaves Novus (RecordStore.confirmUploaded). Its
   * photos are stored as the device stores photos (issue 40): their bytes read first where Blobs are refused.
   */
  async keep(flow: FlowDefinition, registro: LocalColeta, tecnico: string): Promise<void> {
    const copia: Copia = {
      id: registro.id,
      fluxo: flow.key,
      projeto: registro.projeto,
      tecnico,
      enviadoEm: this.now(),
      bytes: bytesOf(registro),
      registro,
    };
    const { fotos } = this.db;
    await fotos.storing(async () => {
      await fotos.prepare(registro);
      await this.reopening(() => this.db.copia.put(copia));
    });
  }

  /** The copies this technician sent, oldest first: never another's kept on the same device. */
  ofTecnico(tecnico: string): Promise<Copia[]> {
    return this.reopening(() => this.db.copia.where('tecnico').equals(tecnico).sortBy('enviadoEm'));
  }

  async drop(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.reopening(() => this.db.copia.bulkDelete([...ids]));
  }

  /** The copies past their project's window; how many went. */
  async dropExpired(retencao: RetencaoCopias): Promise<number> {
    const now = this.now();
    return this.reopening(() =>
      this.db.transaction('rw', this.db.copia, async () => {
        const expired: string[] = [];
        await this.db.copia.each((copia) => {
          if (now - copia.enviadoEm > retencao(copia.projeto) * DAY_MS) expired.push(copia.id);
        });
        await this.db.copia.bulkDelete(expired);
        return expired.length;
      }),
    );
  }

  /**
   * When the device's storage is past COPIAS_LIMITE_USO of its quota, copies of every technician go, oldest first,
   * until what they took brings the estimate back under it (or none is left); how many went. Without an estimate
   * (WebKitGTK has no navigator.storage) only the window applies.
   */
  async dropForSpace(usage: UsoDoEspaco | null): Promise<number> {
    if (usage === null || usage.quotaBytes <= 0) return 0;
    const over = usage.usedBytes - COPIAS_LIMITE_USO * usage.quotaBytes;
    if (over <= 0) return 0;
    return this.reopening(() =>
      this.db.transaction('rw', this.db.copia, async () => {
        let excess = over;
        const freed: string[] = [];
        for (const copia of await this.db.copia.orderBy('enviadoEm').toArray()) {
          if (excess <= 0) break;
          freed.push(copia.id);
          excess -= copia.bytes;
        }
        await this.db.copia.bulkDelete(freed);
        return freed.length;
      }),
    );
  }

  /** 'Cópias de segurança: N registros, X MB' on the storage panel: every technician's copies on the device. */
  async resumo(): Promise<CopiasResumo> {
    let registros = 0;
    let bytes = 0;
    await this.reopening(async () => {
      registros = 0;
      bytes = 0;
      await this.db.copia.each((copia) => {
        registros += 1;
        bytes += copia.bytes;
      });
    });
    return { registros, bytes };
  }
}
