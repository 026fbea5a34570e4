// The sync engine (SPEC.md section 4, DESIGN.md 'Sync protocol'): download projects, upload every pending
// record flow by flow, then download each zone's records (LPT Agiltec's: each project's) and merge them. It never loses or duplicates:
// the record id is made on the device and is the upload's idempotency key, and a record is deleted or
// marked on the device only after the server echoed that very id. A sync cut short resumes: confirmed records are
// gone from the pending list, and photos the server already holds (a lost answer) are named by SHA-256, not resent.
// A photo whose bytes no longer read as they were written (issue 25: iOS 18 corrupts Files kept in IndexedDB) is
// never sent: its record stays pending, the others go, and the sync ends saying which photo to take again.
// After the uploads, the copies of what this technician sent (issue 39) are checked with the server: what a restored
// server lacks is sent again, lost photo files given back, deleted records' copies let go (conferirCopias).
import type { EstadoConferido } from '@novus/domain/api/registros';
import type { CorrecaoRemota } from '@novus/domain/api/revisao';
import { deviceDownload, type FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import { type Copia, retencaoCopiasDias, type UsoDoEspaco } from './copias';
import type { LocalProjeto, NovusDatabase } from './db';
import { reopening } from './reopen';
import { type LocalColeta, type RecordStore, type RemoteColeta, sha256HexOf } from './records';

export type { RemoteColeta } from './records';

/** A photo of an upload: its bytes, or only its SHA-256 when the server said it already holds it. */
export type UploadFoto = { slot: number; blob: Blob } | { slot: number; hash: string };

/** How an upload goes: `reenvio`, a record sent again because the server said it lacked it (issue 39; audited). */
export interface UploadOptions {
  reenvio?: boolean;
}

/** A kept record asked about (POST /api/registros/conferir): its flow, its collection, its photos' SHA-256s. */
export interface CopiaPergunta {
  id: string;
  fluxo: Fluxo;
  coleta?: string;
  fotos: string[];
}

/** What the server says of a kept record, and the photos of it whose files it lacks. */
export interface CopiaResposta {
  id: string;
  estado: EstadoConferido;
  fotosFaltando: string[];
}

/** What the sync needs of the network; the app's is HTTP (api/sync-transport.ts), tests bring a fake. */
export interface SyncTransport {
  getProjetos(): Promise<LocalProjeto[]>;
  /** Sends one record; resolves with the server's parsed JSON answer, rejects with a TransportError. */
  upload(
    flow: FlowDefinition,
    fields: Record<string, string>,
    fotos: UploadFoto[],
    options?: UploadOptions,
  ): Promise<unknown>;
  /**
   * Of these photos' SHA-256s, those the server already holds (resumable sync: a retry after a lost answer
   * names them instead of sending their bytes again). Optional: without it every photo is sent.
   */
  fotosNoServidor?(hashes: string[]): Promise<ReadonlySet<string>>;
  getByZona(flow: FlowDefinition, zonaId: string): Promise<RemoteColeta[]>;
  /** The project's records of a flow the devices download by project (its `byProject` list: LPT Agiltec). */
  getByProjeto(flow: FlowDefinition, projeto: Pick<LocalProjeto, 'id' | 'nome'>): Promise<RemoteColeta[]>;
  log(message: string, extras: Record<string, unknown>): Promise<void>;
  /**
   * The technician's rejected records with the reviewer's word (issue 24). Optional: a transport without it (an
   * older fake) downloads none; an older server answers 404, which the sync takes as 'no corrections'.
   */
  getCorrecoes?(): Promise<CorrecaoRemota[]>;
  /** A photo's bytes by its URL, so a correction's server photos show offline. Optional, as getCorrecoes. */
  getFoto?(url: string): Promise<Blob>;
  /**
   * What the server says of these kept records (up to 500), in the order asked (issue 39). Optional: without it
   * (or with an older server's 404) the copies are only kept and trimmed.
   */
  conferir?(registros: CopiaPergunta[]): Promise<CopiaResposta[]>;
  /** Gives back the lost files of a held record's photos, each by its slot. */
  restaurarFotos?(id: string, fotos: { slot: number; blob: Blob }[]): Promise<void>;
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
  correcoes: 'Baixando correções',
  copias: 'Conferindo as cópias de segurança',
  reenviando: (registros: number) => `Reenviando ${registros} registros que o servidor perdeu`,
  done: 'Sincronizacao concluida',
  failed: 'Ocorreu um erro na sincronizacao',
} as const;

export interface SyncResult {
  ok: boolean;
  uploaded: number;
  downloaded: number;
  error?: string;
}

const ENVELOPE_KEYS = new Set([
  'id',
  'coletaId',
  'projeto',
  'coordenadas',
  'dataHora',
  'precisao',
  'versao',
  'fotosOriginais',
]);

/** The multipart fields of a record: the envelope plus the flow's fields, as strings. */
export function uploadFields(record: LocalColeta): Record<string, string> {
  const fields: Record<string, string> = {
    id: record.id,
    projeto: record.projeto,
    coordenadas: JSON.stringify(record.coordenadas),
    dataHora: String(record.dataHora),
  };
  if (record.precisao !== undefined) fields.precisao = String(record.precisao);
  if (record.coletaId !== undefined) fields.coletaId = record.coletaId;
  // Only a correction is a new revision; any other upload is its record's first (a point collected again is a
  // new collection, which the server tells by coletaId, not a revision).
  if (record.correcao && record.versao !== undefined) fields.versao = String(record.versao);
  // The camera's originals, by slot, of the compressed (and stamped) photos sent (issue 26).
  if (record.fotosOriginaisSha256?.some((hash) => hash !== null)) {
    fields.fotosOriginais = JSON.stringify(record.fotosOriginaisSha256);
  }
  for (const [key, value] of Object.entries(record.dados)) {
    if (ENVELOPE_KEYS.has(key) || value === undefined || value === null) continue;
    fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return fields;
}

/** How many hashes one question about held photos carries (the server takes up to 1,000). */
const HASHES_PER_QUESTION = 500;

/** How many kept records one question to /api/registros/conferir carries (the server takes up to 500). */
const COPIAS_PER_QUESTION = 500;

/** The SHA-256 of a photo, hex, as the server's content-addressed store names it. */
export async function sha256Hex(blob: Blob): Promise<string> {
  const hash = await sha256HexOf(await blob.arrayBuffer());
  if (hash === null) throw new Error('Este navegador não calcula SHA-256 (WebCrypto indisponível).');
  return hash;
}

/** The pending photos of a flow as read now: each one's SHA-256, or why its bytes could not be read. */
interface PhotosRead {
  hashes: Map<Blob, string>;
  unreadable: Map<Blob, string>;
}

/** A photo of a record found corrupt at upload: unreadable now, or read with another SHA-256 than when written. */
export interface CorruptPhoto {
  slot: number;
  /** The hash computed when it was written, and the one of the bytes read now (mismatch). */
  esperado?: string;
  lido?: string;
  /** Why the bytes could not be read ('NotReadableError'). */
  erro?: string;
}

export interface CorruptRecord {
  record: LocalColeta;
  fotos: CorruptPhoto[];
}

/** The record's photos whose bytes, read now, are not those written (a record without hashes: unreadable ones only). */
function corruptPhotos(record: LocalColeta, read: PhotosRead): CorruptPhoto[] {
  return record.fotos.flatMap((blob, slot): CorruptPhoto[] => {
    if (!blob) return [];
    const erro = read.unreadable.get(blob);
    if (erro !== undefined) return [{ slot, erro }];
    const esperado = record.fotosSha256?.[slot];
    const lido = read.hashes.get(blob);
    if (typeof esperado !== 'string' || lido === undefined || lido === esperado) return [];
    return [{ slot, esperado, lido }];
  });
}

/** '2', '1 e 3', '1, 2 e 3': photo numbers as the technician counts them (from 1). */
function fotoNumbers(fotos: readonly CorruptPhoto[]): string {
  const numbers = fotos.map(({ slot }) => String(slot + 1));
  const last = numbers.pop() ?? '';
  return numbers.length > 0 ? `${numbers.join(', ')} e ${last}` : last;
}

/** When the record was collected, as the pending list (Levantamento) shows it. */
const whenOf = (record: LocalColeta) => new Date(record.dataHora).toLocaleString('pt-BR');

/** How many corrupt records of a flow the message lists one by one. */
const CORRUPT_LISTED = 5;

/** What the technician reads when a flow's records were held back for corrupt photos: which, and what to do. */
export function corruptPhotoMessage(flow: FlowDefinition, corrupt: readonly CorruptRecord[]): string {
  const nome = flow.labels.banner;
  const [only] = corrupt;
  if (only && corrupt.length === 1) {
    const one = only.fotos.length === 1;
    return one
      ? `Foto ${fotoNumbers(only.fotos)} de um registro de ${nome} (${whenOf(only.record)}) está corrompida no ` +
          'aparelho e não foi enviada. Abra o registro, tire a foto de novo e sincronize.'
      : `Fotos ${fotoNumbers(only.fotos)} de um registro de ${nome} (${whenOf(only.record)}) estão corrompidas no ` +
          'aparelho e não foram enviadas. Abra o registro, tire as fotos de novo e sincronize.';
  }
  const listed = corrupt
    .slice(0, CORRUPT_LISTED)
    .map(
      ({ record, fotos }) =>
        `${fotos.length === 1 ? 'foto' : 'fotos'} ${fotoNumbers(fotos)} do registro de ${whenOf(record)}`,
    );
  const more = corrupt.length > CORRUPT_LISTED ? ` e mais ${corrupt.length - CORRUPT_LISTED}` : '';
  return (
    `Fotos de ${corrupt.length} registros de ${nome} estão corrompidas no aparelho e não foram enviadas: ` +
    `${listed.join('; ')}${more}. Abra os registros, tire as fotos de novo e sincronize.`
  );
}

/** What the technician reads when photos of kept copies could not be given back: they can only be told. */
export function corruptCopiaMessage(
  corrupt: readonly { flow: FlowDefinition; found: CorruptRecord }[],
): string {
  const [only] = corrupt;
  if (only && corrupt.length === 1) {
    const { flow, found } = only;
    const { fotos, record } = found;
    return fotos.length === 1
      ? `Foto ${fotoNumbers(fotos)} da cópia de segurança de um registro de ${flow.labels.banner} ` +
          `(${whenOf(record)}) está corrompida no aparelho e não foi reenviada ao servidor.`
      : `Fotos ${fotoNumbers(fotos)} da cópia de segurança de um registro de ${flow.labels.banner} ` +
          `(${whenOf(record)}) estão corrompidas no aparelho e não foram reenviadas ao servidor.`;
  }
  return (
    `Fotos de ${corrupt.length} cópias de segurança estão corrompidas no aparelho e não foram reenviadas ao ` +
    'servidor.'
  );
}

/** A kept photo's SHA-256: as written, else as read now (a photo kept without one). */
function hashOf(registro: LocalColeta, slot: number, read: PhotosRead): string | undefined {
  const written = registro.fotosSha256?.[slot];
  if (typeof written === 'string') return written;
  const blob = registro.fotos[slot];
  return blob ? read.hashes.get(blob) : undefined;
}

/** The record with only its photos kept without a hash: those are the ones to read before asking about it. */
function withoutHashed(registro: LocalColeta): LocalColeta {
  return {
    ...registro,
    fotos: registro.fotos.map((blob, slot) =>
      typeof registro.fotosSha256?.[slot] === 'string' ? null : blob,
    ),
  };
}

/** The slots holding a photo that pass the test. */
function slotsOf(registro: LocalColeta, test: (slot: number) => boolean): Set<number> {
  return new Set(registro.fotos.flatMap((blob, slot) => (blob && test(slot) ? [slot] : [])));
}

/** A copy as POST /api/registros/conferir asks about it. */
function perguntaOf({ registro, fluxo }: Copia, read: PhotosRead): CopiaPergunta {
  const fotos = registro.fotos.flatMap((blob, slot) => {
    const hash = blob ? hashOf(registro, slot, read) : undefined;
    return hash === undefined ? [] : [hash];
  });
  return {
    id: registro.id,
    fluxo,
    ...(registro.coletaId !== undefined ? { coleta: registro.coletaId } : {}),
    fotos: [...new Set(fotos)],
  };
}

/** The sync could not check the copies with the server: nothing was lost, and the next sync tries again. */
export const copiasFailureMessage = (erro: string) =>
  `Não foi possível conferir as cópias de segurança com o servidor (${erro}). Os registros enviados e as cópias ` +
  'continuam guardados.';

/** Only a JSON answer echoing the record's id confirms it (a captive portal's HTML 200 does not). */
export function confirmsUpload(answer: unknown, id: string): boolean {
  return typeof answer === 'object' && answer !== null && '_id' in answer && answer._id === id;
}

export interface SyncEngineOptions {
  db: NovusDatabase;
  /** The device's one write path: sync marks, deletes and merges through it. */
  records: RecordStore;
  transport: SyncTransport;
  flows: readonly FlowDefinition[];
  /** The technician's name, for the log entries. */
  tecnico: string;
  onStatus?: (text: string) => void;
  now?: () => number;
  /**
   * How many uploads of one flow may be in flight at once (default 3): on a phone link each record otherwise
   * waits for its own round trip. Halved for the rest of a sync after a transport failure it survives.
   */
  concurrency?: number;
  /**
   * The browser's storage estimate (the app's: navigator.storage), for trimming the copies when space runs short;
   * without it, or when it answers null (WebKitGTK has none), only the copies' window applies.
   */
  storageUsage?: () => Promise<UsoDoEspaco | null>;
}

const DEFAULT_UPLOAD_CONCURRENCY = 3;

export class SyncEngine {
  /** Uploads in flight at most, for this sync: starts at the option, only goes down. */
  private uploadLimit: number;
  /** This sync's flows whose records were held back for corrupt photos, with what the technician reads. */
  private corrupt: { flow: FlowDefinition; message: string }[] = [];
  /** What went wrong with the copies (issue 39) in this sync, for the last word: the records' sync stands. */
  private copiasProblems: string[] = [];

  constructor(private readonly options: SyncEngineOptions) {
    this.uploadLimit = this.startLimit();
  }

  private startLimit(): number {
    const wanted = this.options.concurrency ?? DEFAULT_UPLOAD_CONCURRENCY;
    return Number.isFinite(wanted) ? Math.max(1, Math.floor(wanted)) : DEFAULT_UPLOAD_CONCURRENCY;
  }

  private status(text: string): void {
    this.options.onStatus?.(text);
  }

  async run(): Promise<SyncResult> {
    const { flows } = this.options;
    let uploaded = 0;
    let downloaded = 0;
    let current = 'SINCRONIZACAO PROJETOS';
    this.uploadLimit = this.startLimit();
    this.corrupt = [];
    this.copiasProblems = [];
    try {
      this.status(SYNC_TEXTS.start);
      this.status(SYNC_TEXTS.projetos);
      const projetos = await this.downloadProjetos();
      const fluxos = new Set(projetos.flatMap((projeto) => projeto.fluxos));
      for (const flow of flows) {
        if (!fluxos.has(flow.key) && (await this.options.records.pending(flow)).length === 0) continue;
        current = flow.syncTag;
        this.status(flow.syncStatus);
        uploaded += await this.uploadPending(flow);
      }
      // What this technician sent earlier and the server may have lost since (a restored backup): before the
      // downloads, so the records sent again come back with them.
      await this.conferirCopias(projetos);
      // Before the zone downloads: a correction approved since leaves here, and the download then brings the
      // record as the server holds it.
      current = 'SINCRONIZACAO CORRECOES';
      await this.downloadCorrecoes();
      for (const flow of flows) {
        const by = deviceDownload(flow);
        if (by === null) continue;
        current = flow.syncTag;
        downloaded += await this.download(flow, by, projetos);
        // The map's points of a device that held records before it kept them (an update of the app) (issue 41).
        if (flow.lifecycle !== 'lista') {
          const deles = projetos.filter((projeto) => projeto.fluxos.includes(flow.key)).map(({ id }) => id);
          await this.options.records.mapa.garantir(flow, deles);
        }
      }
      // Everything else went; the records with corrupt photos stay pending, and the sync says which (logged), as it
      // says what went wrong with the copies.
      if (this.corrupt.length > 0 || this.copiasProblems.length > 0) {
        const message = this.corruptMessage();
        this.status(`${message} — ${SYNC_TEXTS.failed}`);
        return { ok: false, uploaded, downloaded, error: message };
      }
      this.status(SYNC_TEXTS.done);
      return { ok: true, uploaded, downloaded };
    } catch (error) {
      if (error instanceof SessionExpiredError) throw error;
      const failure = error instanceof Error ? error.message : String(error);
      await this.options.transport
        .log(current, { tecnico: this.options.tecnico, erro: failure })
        .catch(() => undefined); // offline: the log is lost, the records are not
      // Photos found corrupt before the failure are still news to the technician (logged already).
      const before = this.corruptMessage();
      const message = before !== '' ? `${before} ${failure}` : failure;
      this.status(`${message} — ${SYNC_TEXTS.failed}`);
      return { ok: false, uploaded, downloaded, error: message };
    }
  }

  private corruptMessage(): string {
    return [...this.corrupt.map(({ message }) => message), ...this.copiasProblems].join(' ');
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
    await reopening(db, () =>
      db.transaction('rw', db.projeto, async () => {
        const keep = new Set(projetos.map((projeto) => projeto.id));
        const stale = (await db.projeto.toCollection().primaryKeys()).filter((id) => !keep.has(id));
        await db.projeto.bulkDelete(stale);
        await db.projeto.bulkPut(projetos);
      }),
    );
    return projetos;
  }

  /**
   * The photos of these records the server already holds, by SHA-256 (a sync cut after the server stored a
   * record but before its answer came back). Asking is an optimisation: when it fails, every photo is sent.
   */
  private async heldPhotos(records: readonly LocalColeta[], read: PhotosRead): Promise<Map<Blob, string>> {
    const { transport } = this.options;
    const held = new Map<Blob, string>();
    const ask = transport.fotosNoServidor?.bind(transport);
    if (!ask) return held;
    const hashes = new Map<Blob, string>();
    for (const record of records) {
      for (const blob of record.fotos) {
        const hash = blob ? read.hashes.get(blob) : undefined;
        if (blob && hash !== undefined) hashes.set(blob, hash);
      }
    }
    const all = [...new Set(hashes.values())];
    const known = new Set<string>();
    for (let start = 0; start < all.length; start += HASHES_PER_QUESTION) {
      const chunk = all.slice(start, start + HASHES_PER_QUESTION);
      try {
        for (const hash of await this.call(() => ask(chunk))) known.add(hash);
      } catch (error) {
        if (error instanceof SessionExpiredError) throw error;
        // A link that drops requests loses less with fewer uploads in flight.
        if (error instanceof TransportError && error.status === 0) this.slowDown();
        break; // an older server, or the network: send the bytes
      }
    }
    for (const [blob, hash] of hashes) if (known.has(hash)) held.set(blob, hash);
    return held;
  }

  /**
   * Every photo of these records read once, in turn (one photo's bytes in memory at a time): its SHA-256, or the
   * error its read failed with. Without WebCrypto (an insecure context) nothing is hashed: nothing is compared.
   */
  private async readPhotos(records: readonly LocalColeta[]): Promise<PhotosRead> {
    const read: PhotosRead = { hashes: new Map(), unreadable: new Map() };
    for (const record of records) {
      for (const blob of record.fotos) {
        if (!blob || read.hashes.has(blob) || read.unreadable.has(blob)) continue;
        let bytes: ArrayBuffer;
        try {
          bytes = await blob.arrayBuffer();
        } catch (error) {
          read.unreadable.set(
            blob,
            error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          );
          continue;
        }
        const hash = await sha256HexOf(bytes);
        if (hash !== null) read.hashes.set(blob, hash);
      }
    }
    return read;
  }

  /**
   * The flow's records with corrupt photos are held back: they stay pending with everything they have, the
   * failure is logged, and the sync goes on with the others (it ends not ok, naming them).
   */
  private async holdCorrupt(
    flow: FlowDefinition,
    pending: readonly LocalColeta[],
    read: PhotosRead,
  ): Promise<LocalColeta[]> {
    const corrupt = pending.flatMap((record): CorruptRecord[] => {
      const fotos = corruptPhotos(record, read);
      return fotos.length > 0 ? [{ record, fotos }] : [];
    });
    if (corrupt.length === 0) return [...pending];
    const message = corruptPhotoMessage(flow, corrupt);
    this.corrupt.push({ flow, message });
    await this.options.transport
      .log(flow.syncTag, {
        tecnico: this.options.tecnico,
        erro: message,
        fotosCorrompidas: corrupt.map(({ record, fotos }) => ({
          id: record.id,
          fotos: fotos.map(({ slot, ...found }) => ({ foto: slot + 1, ...found })),
        })),
      })
      .catch(() => undefined); // offline: the log is lost, the records are not
    const held = new Set(corrupt.map(({ record }) => record));
    return pending.filter((record) => !held.has(record));
  }

  /** After a transport failure the sync survived: half as many uploads in flight, for the rest of this sync. */
  private slowDown(): void {
    this.uploadLimit = Math.max(1, Math.floor(this.uploadLimit / 2));
  }

  /**
   * Uploads the flow's pending records, oldest first, up to `uploadLimit` at once. Each record is taken by one
   * worker only, so none is ever in flight twice. The first failure stops new uploads; those already in flight
   * settle (a record the server echoed is let go, as it would be had it been sent alone), then the sync ends with
   * the failure of the earliest record in the flow's order, or an expired session if any upload met one. Records
   * with corrupt photos are not sent at all, and not counted (holdCorrupt).
   */
  private async uploadPending(flow: FlowDefinition): Promise<number> {
    const { records } = this.options;
    const all = (await records.pending(flow)).sort((a, b) => a.dataHora - b.dataHora);
    // Each photo read and hashed once: checked against its hash at capture, then asked about by the same hash.
    const read = await this.readPhotos(all);
    const pending = await this.holdCorrupt(flow, all, read);
    const held = await this.heldPhotos(pending, read);
    const failures: { index: number; error: unknown }[] = [];
    let next = 0;
    const worker = async (slot: number) => {
      // A worker past the limit retires: that is how the limit goes down while the flow is being sent.
      while (failures.length === 0 && next < pending.length && slot < this.uploadLimit) {
        const index = next;
        next += 1;
        const record = pending[index];
        if (record === undefined) return;
        try {
          await this.uploadOne(flow, record, held);
        } catch (error) {
          failures.push({ index, error });
        }
      }
    };
    const workers = Math.min(this.uploadLimit, pending.length);
    await Promise.all(Array.from({ length: workers }, (_, slot) => worker(slot)));
    const expired = failures.find(({ error }) => error instanceof SessionExpiredError);
    const [first] = failures.sort((a, b) => a.index - b.index);
    const failure = expired ?? first;
    if (failure) throw failure.error;
    return pending.length;
  }

  /** Sends one record and lets go of it only once the server's answer names its id. */
  private async uploadOne(flow: FlowDefinition, record: LocalColeta, held: ReadonlyMap<Blob, string>) {
    await this.sendRecord(flow, record, held);
    // Only now, with the server's word for this id, may the device let go of the record.
    await this.options.records.confirmUploaded(flow, record, this.options.tecnico);
  }

  /**
   * Sends one record (its photos the server holds by hash) and resolves once the server's answer names its id.
   * `skip`: photos not to send (a kept copy's corrupt ones).
   */
  private async sendRecord(
    flow: FlowDefinition,
    record: LocalColeta,
    held: ReadonlyMap<Blob, string>,
    options: UploadOptions = {},
    skip: ReadonlySet<number> = new Set(),
  ): Promise<void> {
    const { transport } = this.options;
    const send = (fotos: UploadFoto[]) =>
      this.call(() => transport.upload(flow, uploadFields(record), fotos, options)).catch(
        (error: unknown) => {
          if (error instanceof TransportError && error.status !== 401) {
            throw new TransportError(error.status, `${flow.uploadErrorPrefix}: ${error.message}`);
          }
          throw error;
        },
      );
    const taken = record.fotos.flatMap((blob, slot) => (blob && !skip.has(slot) ? [{ slot, blob }] : []));
    // A correction keeps the server's photos it did not replace: named by hash, their bytes are the server's.
    const kept = (record.fotosServidor ?? []).filter(({ slot }) => !record.fotos[slot]);
    const fotos = [
      ...taken.map((foto): UploadFoto => {
        const hash = held.get(foto.blob);
        return hash ? { slot: foto.slot, hash } : foto;
      }),
      ...kept.map(({ slot, hash }): UploadFoto => ({ slot, hash })),
    ];
    const withBytes = [
      ...taken,
      ...kept.map(({ slot, hash, blob }): UploadFoto => (blob ? { slot, blob } : { slot, hash })),
    ];
    const named = fotos.some((foto) => 'hash' in foto);
    const answer = await send(fotos).catch((error: unknown) => {
      // The server refused a photo it was said to hold (gone since it was asked): send the bytes instead.
      if (named && error instanceof TransportError && error.status >= 400 && error.status < 500) {
        return send(withBytes);
      }
      throw error;
    });
    if (!confirmsUpload(answer, record.id)) {
      throw new Error(
        `${flow.uploadErrorPrefix}: o servidor não confirmou o envio (resposta inesperada). Os dados continuam no aparelho.`,
      );
    }
  }

  /**
   * The copies of what was sent (issue 39): those past their project's window go (as the projects just downloaded set
   * it), and those of every technician, oldest first, when the device runs short of space; then this technician's are
   * asked about, in chunks, by their photos' SHA-256s as written. Lacking on the server: sent again as ordinary
   * uploads marked `reenvio` (the copy stays, its window goes on); held but with photo files lost: those photos given
   * back; deleted on purpose or someone else's: the copy goes. Only what is sent is read, and a photo whose bytes no
   * longer match its hash is not sent (the sync says so). A failure here is logged and said at the end of the sync,
   * which goes on: the records' sync stands, and the copies stay as they are for the next one.
   */
  private async conferirCopias(projetos: readonly LocalProjeto[]): Promise<void> {
    const { records, transport, tecnico } = this.options;
    const { copias } = records;
    if (!copias) return;
    const corrupt: { flow: FlowDefinition; found: CorruptRecord }[] = [];
    try {
      await copias.dropExpired(retencaoCopiasDias(projetos));
      const usage = this.options.storageUsage ? await this.options.storageUsage().catch(() => null) : null;
      await copias.dropForSpace(usage);
      const conferir = transport.conferir?.bind(transport);
      if (!conferir) return;
      const flows = new Map(this.options.flows.map((flow) => [flow.key, flow]));
      const mine = (await copias.ofTecnico(tecnico)).filter((copia) => flows.has(copia.fluxo));
      if (mine.length === 0) return;
      this.status(SYNC_TEXTS.copias);
      // Photos kept without their hash (an insecure context when written) are hashed to be asked about.
      const unhashed = await this.readPhotos(mine.map(({ registro }) => withoutHashed(registro)));
      const respostas = new Map<string, CopiaResposta>();
      for (let start = 0; start < mine.length; start += COPIAS_PER_QUESTION) {
        const chunk = mine.slice(start, start + COPIAS_PER_QUESTION);
        let answers: CopiaResposta[];
        try {
          answers = await this.call(() => conferir(chunk.map((copia) => perguntaOf(copia, unhashed))));
        } catch (error) {
          // An older server has no such question: the copies are only kept.
          if (error instanceof TransportError && error.status === 404) return;
          throw error;
        }
        for (const answer of answers) respostas.set(answer.id, answer);
      }
      const estado = (copia: Copia) => respostas.get(copia.id)?.estado;
      await copias.drop(
        mine
          .filter((copia) => estado(copia) === 'excluido' || estado(copia) === 'alheio')
          .map(({ id }) => id),
      );
      // What goes back to the server, by slot: every photo of a record it lacks, the lost ones of a record it holds.
      const sending = mine.flatMap((copia) => {
        const flow = flows.get(copia.fluxo);
        const { registro } = copia;
        if (!flow) return [];
        if (estado(copia) === 'faltando') return [{ flow, copia, slots: slotsOf(registro, () => true) }];
        const lost = new Set(respostas.get(copia.id)?.fotosFaltando ?? []);
        if (estado(copia) !== 'guardado' || lost.size === 0) return [];
        const slots = slotsOf(registro, (slot) => lost.has(hashOf(registro, slot, unhashed) ?? ''));
        return slots.size > 0 ? [{ flow, copia, slots }] : [];
      });
      if (sending.length === 0) return;
      const read = await this.readPhotos(sending.map(({ copia }) => copia.registro));
      const skipped = sending.map(({ flow, copia, slots }) => {
        const fotos = corruptPhotos(copia.registro, read).filter(({ slot }) => slots.has(slot));
        if (fotos.length > 0) corrupt.push({ flow, found: { record: copia.registro, fotos } });
        return { flow, copia, slots, skip: new Set(fotos.map(({ slot }) => slot)) };
      });
      const faltando = skipped.filter(({ copia }) => estado(copia) === 'faltando');
      if (faltando.length > 0) {
        this.status(SYNC_TEXTS.reenviando(faltando.length));
        const held = await this.heldPhotos(
          faltando.map(({ copia }) => copia.registro),
          read,
        );
        for (const { flow, copia, skip } of faltando) {
          await this.sendRecord(flow, copia.registro, held, { reenvio: true }, skip);
        }
      }
      const restaurar = transport.restaurarFotos?.bind(transport);
      for (const { copia, slots, skip } of skipped) {
        if (!restaurar || estado(copia) !== 'guardado') continue;
        const fotos = copia.registro.fotos.flatMap((blob, slot) =>
          blob && slots.has(slot) && !skip.has(slot) ? [{ slot, blob }] : [],
        );
        if (fotos.length > 0) await this.call(() => restaurar(copia.id, fotos));
      }
    } catch (error) {
      if (error instanceof SessionExpiredError) throw error;
      const problem = copiasFailureMessage(error instanceof Error ? error.message : String(error));
      this.copiasProblems.push(problem);
      await transport.log('SINCRONIZACAO COPIAS', { tecnico, erro: problem }).catch(() => undefined); // offline: the log is lost, the copies are not
    } finally {
      if (corrupt.length > 0) {
        const message = corruptCopiaMessage(corrupt);
        this.copiasProblems.unshift(message);
        await transport
          .log('SINCRONIZACAO COPIAS', {
            tecnico,
            erro: message,
            fotosCorrompidas: corrupt.map(({ found: { record, fotos } }) => ({
              id: record.id,
              fotos: fotos.map(({ slot, ...rest }) => ({ foto: slot + 1, ...rest })),
            })),
          })
          .catch(() => undefined); // offline: the log is lost, the copies are not
      }
    }
  }

  /**
   * The technician's corrections (issue 24): each stored in its flow's store unless the device holds that record
   * pending; those no longer listed cleared. An older server (404) has none to give and nothing is cleared; a
   * network failure fails the sync like any download. Then the server's photos are fetched for offline use.
   */
  private async downloadCorrecoes(): Promise<void> {
    const { transport, records, flows } = this.options;
    const get = transport.getCorrecoes?.bind(transport);
    if (!get) return;
    this.status(SYNC_TEXTS.correcoes);
    let correcoes: CorrecaoRemota[];
    try {
      correcoes = await this.call(get);
    } catch (error) {
      // 404: an older server; 403: a role the server keeps no corrections for (an administrador syncing a device).
      if (error instanceof TransportError && (error.status === 404 || error.status === 403)) return;
      throw error;
    }
    const stored: { flow: FlowDefinition; correcao: CorrecaoRemota }[] = [];
    for (const flow of flows) {
      const mine = correcoes.filter((correcao) => correcao.fluxo === flow.key);
      for (const correcao of mine) {
        if (await records.storeCorrecao(flow, correcao)) stored.push({ flow, correcao });
      }
      await records.clearCorrecoes(flow, new Set(mine.map((correcao) => correcao.registro._id)));
    }
    await this.fetchFotosServidor(stored);
  }

  /**
   * The bytes of the corrections' server photos not fetched yet. Only for showing them offline (the upload names
   * them by hash): a photo that fails now shows from its URL online and is fetched again by the next sync.
   */
  private async fetchFotosServidor(stored: { flow: FlowDefinition; correcao: CorrecaoRemota }[]) {
    const { transport, records } = this.options;
    const getFoto = transport.getFoto?.bind(transport);
    if (!getFoto) return;
    for (const { flow, correcao } of stored) {
      const local = await records.getByID(flow, correcao.registro._id);
      for (const foto of local?.fotosServidor ?? []) {
        if (foto.blob) continue;
        try {
          const blob = await this.call(() => getFoto(foto.url));
          await records.keepFotoServidor(flow, correcao.registro._id, foto.hash, blob);
        } catch (error) {
          if (error instanceof SessionExpiredError) throw error;
          if (error instanceof TransportError && error.status === 0) return; // offline now: the next sync
        }
      }
    }
  }

  /** Each zone's (or each project's) records of the flow, merged: a record pending on the device stays as it is. */
  private async download(flow: FlowDefinition, by: 'zona' | 'projeto', projetos: LocalProjeto[]) {
    const { transport, records } = this.options;
    let count = 0;
    for (const projeto of projetos) {
      if (!projeto.fluxos.includes(flow.key)) continue;
      const lists =
        by === 'projeto'
          ? [() => transport.getByProjeto(flow, projeto)]
          : projeto.zonas.map((zona) => () => transport.getByZona(flow, zona._id));
      for (const list of lists) count += await records.merge(flow, await this.call(list));
    }
    return count;
  }
}
