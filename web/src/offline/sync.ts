// The sync engine (SPEC.md section 4, DESIGN.md 'Sync protocol'): download projects, upload every pending
// record flow by flow, then download each zone's records and merge them. It never loses or duplicates:
// the record id is made on the device and is the upload's idempotency key, and a record is deleted or
// marked on the device only after the server echoed that very id.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { LocalProjeto, NovusDatabase } from './db';
import type { LocalColeta } from './records';

/** What the sync needs of the network; the app's is HTTP (api/sync-transport.ts), tests bring a fake. */
export interface SyncTransport {
  getProjetos(): Promise<LocalProjeto[]>;
  /** Sends one record; resolves with the server's parsed JSON answer, rejects with a TransportError. */
  upload(
    flow: FlowDefinition,
    fields: Record<string, string>,
    fotos: { slot: number; blob: Blob }[],
  ): Promise<unknown>;
  getByZona(flow: FlowDefinition, zonaId: string): Promise<RemoteColeta[]>;
  log(message: string, extras: Record<string, unknown>): Promise<void>;
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

/** No answer (status 0), or a non-OK one. */
export class TransportError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** The session expired during sync: nothing is lost, the user logs in again and syncs again. */
export class SessionExpiredError extends Error {
  constructor() {
    super('Sua sessão expirou. Faça login novamente para sincronizar; nenhum dado foi perdido.');
    this.name = 'SessionExpiredError';
  }
}

export const SYNC_TEXTS = {
  start: 'Iniciando sincronizacao...',
  projetos: 'Sincronizando projetos',
  done: 'Sincronizacao concluida',
  failed: 'Ocorreu um erro na sincronizacao',
} as const;

export interface SyncResult {
  ok: boolean;
  uploaded: number;
  downloaded: number;
  error?: string;
}

const ENVELOPE_KEYS = new Set(['id', 'projeto', 'coordenadas', 'dataHora', 'precisao']);

/** The multipart fields of a record: the envelope plus the flow's fields, as strings. */
export function uploadFields(record: LocalColeta): Record<string, string> {
  const fields: Record<string, string> = {
    id: record.id,
    projeto: record.projeto,
    coordenadas: JSON.stringify(record.coordenadas),
    dataHora: String(record.dataHora),
  };
  if (record.precisao !== undefined) fields.precisao = String(record.precisao);
  for (const [key, value] of Object.entries(record.dados)) {
    if (ENVELOPE_KEYS.has(key) || value === undefined || value === null) continue;
    fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fields;
}

/** Only a JSON answer echoing the record's id confirms it (a captive portal's HTML 200 does not). */
export function confirmsUpload(answer: unknown, id: string): boolean {
  return typeof answer === 'object' && answer !== null && '_id' in answer && answer._id === id;
}

export interface SyncEngineOptions {
  db: NovusDatabase;
  transport: SyncTransport;
  flows: readonly FlowDefinition[];
  /** The technician's name, for the log entries. */
  tecnico: string;
  onStatus?: (text: string) => void;
  now?: () => number;
}

export class SyncEngine {
  constructor(private readonly options: SyncEngineOptions) {}

  private status(text: string): void {
    this.options.onStatus?.(text);
  }

  async run(): Promise<SyncResult> {
    const { flows } = this.options;
    let uploaded = 0;
    let downloaded = 0;
    let current = 'SINCRONIZACAO PROJETOS';
    try {
      this.status(SYNC_TEXTS.start);
      this.status(SYNC_TEXTS.projetos);
      const projetos = await this.downloadProjetos();
      const fluxos = new Set(projetos.flatMap((projeto) => projeto.fluxos));
      for (const flow of flows) {
        if (!fluxos.has(flow.key) && (await this.table(flow).count()) === 0) continue;
        current = flow.syncTag;
        this.status(flow.syncStatus);
        uploaded += await this.uploadPending(flow);
      }
      for (const flow of flows) {
        current = flow.syncTag;
        downloaded += await this.downloadByZona(flow, projetos);
      }
      this.status(SYNC_TEXTS.done);
      return { ok: true, uploaded, downloaded };
    } catch (error) {
      if (error instanceof SessionExpiredError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      await this.options.transport
        .log(current, { tecnico: this.options.tecnico, erro: message })
        .catch(() => undefined); // offline: the log is lost, the records are not
      this.status(`${message} — ${SYNC_TEXTS.failed}`);
      return { ok: false, uploaded, downloaded, error: message };
    }
  }

  private table(flow: FlowDefinition) {
    return this.options.db.table<LocalColeta, string>(flow.store);
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof TransportError && error.status === 401) throw new SessionExpiredError();
      throw error;
    }
  }

  private async downloadProjetos(): Promise<LocalProjeto[]> {
    const projetos = await this.call(() => this.options.transport.getProjetos());
    const { db } = this.options;
    await db.transaction('rw', db.projeto, async () => {
      const keep = new Set(projetos.map((projeto) => projeto.id));
      const stale = (await db.projeto.toCollection().primaryKeys()).filter((id) => !keep.has(id));
      await db.projeto.bulkDelete(stale);
      await db.projeto.bulkPut(projetos);
    });
    return projetos;
  }

  private async uploadPending(flow: FlowDefinition): Promise<number> {
    const pending = (await this.table(flow).toArray())
      .filter((record) => !record.sincronizadoEm)
      .sort((a, b) => a.dataHora - b.dataHora);
    for (const record of pending) {
      const fotos = record.fotos.flatMap((blob, slot) => (blob ? [{ slot, blob }] : []));
      const answer = await this.call(() => this.options.transport.upload(flow, uploadFields(record), fotos));
      if (!confirmsUpload(answer, record.id)) {
        throw new Error(
          'O servidor não confirmou o envio (resposta inesperada). Os dados continuam no aparelho.',
        );
      }
      // Only now, with the server's word for this id, may the device let go of the record.
      if (flow.deleteAfterUpload) await this.table(flow).delete(record.id);
      else await this.table(flow).update(record.id, { sincronizadoEm: (this.options.now ?? Date.now)() });
    }
    return pending.length;
  }

  private async downloadByZona(flow: FlowDefinition, projetos: LocalProjeto[]): Promise<number> {
    let count = 0;
    for (const projeto of projetos) {
      if (!projeto.fluxos.includes(flow.key)) continue;
      for (const zona of projeto.zonas) {
        const remote = await this.call(() => this.options.transport.getByZona(flow, zona._id));
        count += await this.merge(flow, remote);
      }
    }
    return count;
  }

  /** Server records join the store; a record still pending on the device is never overwritten. */
  async merge(flow: FlowDefinition, remote: RemoteColeta[]): Promise<number> {
    const table = this.table(flow);
    return this.options.db.transaction('rw', table, async () => {
      const local = await table.bulkGet(remote.map((record) => record._id));
      const incoming = remote
        .filter((_, index) => {
          const mine = local[index];
          return !mine || Boolean(mine.sincronizadoEm);
        })
        .map(fromRemote);
      await table.bulkPut(incoming);
      return incoming.length;
    });
  }
}

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
]);

function fromRemote(remote: RemoteColeta): LocalColeta {
  const dados = Object.fromEntries(Object.entries(remote).filter(([key]) => !REMOTE_KEYS.has(key)));
  return {
    id: remote._id,
    projeto: remote.projeto,
    dataHora: remote.dataHora ?? 0,
    coordenadas: remote.coordenadas ?? { lat: 0, lng: 0 },
    ...(typeof remote.precisao === 'number' ? { precisao: remote.precisao } : {}),
    fotos: [],
    fotosUrls: remote.fotos,
    imagensCompactadas: true,
    sincronizadoEm: remote.sincronizadoEm ?? Date.now(),
    ...(remote.tecnico ? { tecnico: remote.tecnico } : {}),
    dados,
  };
}
