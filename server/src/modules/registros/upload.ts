// Reading an upload's multipart body: its fields first, then its photos, whose bytes are stored only after the
// caller was admitted to the project; and removing the stored photos that no record ended up referring to.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { z } from '@novus/domain/zod';
import type { Database, Queryable } from '../../db/database.ts';
import { badRequest, conflict, parseInput, tooLarge, unsupportedMedia } from '../../errors.ts';
import { type BlobStore, NotAnImageError, type StoredBlob } from '../../storage/blob-store.ts';
import { findFotos, type NewFoto, referencedHashes } from './queries.ts';

/** The largest photo taken, by the sync's upload and by an import of pendentes. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
export const FOTO_GRANDE_DEMAIS = `A foto excede o tamanho máximo de ${MAX_PHOTO_BYTES / 1024 / 1024} MB.`;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * The multipart field naming photos the server already holds (resumable sync): a JSON list of `{slot, hash}`,
 * sent instead of those photos' bytes by a device that asked `POST /api/fotos/existem` first. Old clients
 * never send it and keep sending every photo.
 */
export const FOTOS_NO_SERVIDOR = 'fotosNoServidor';
/** The SHA-256 of each photo's camera original, by slot, when the device stamped a copy (issue 26). */
export const FOTOS_ORIGINAIS = 'fotosOriginais';
/**
 * '1' when the phone sends again a record the server said it lacked (issue 39: a restored backup): the upload is
 * stored as any other, and the server audits and logs it.
 */
export const REENVIO = 'reenvio';

export const SHA256_HEX = /^[0-9a-f]{64}$/;

const heldListSchema = z.array(
  z.object({
    slot: z.number({ error: 'Posição de foto inválida.' }).int('Posição de foto inválida.').min(0),
    hash: z.string().regex(SHA256_HEX, 'Hash de foto inválido.'),
  }),
  { error: 'Lista de fotos já enviadas inválida.' },
);

export const FOTO_NAO_ENCONTRADA =
  'Uma foto indicada como já enviada não está no servidor: envie a foto de novo.';

export interface Upload<Admitted> {
  fields: Record<string, string>;
  /** What `admit` answered once the fields were read. */
  admitted: Admitted;
  fotos: NewFoto[];
  /** The phone said it sends again a record the server lacked (REENVIO). */
  reenvio: boolean;
}

export interface UploadHandlers<Admitted> {
  /** Parses the fields read so far and checks the caller may upload them; throws to refuse. */
  admit(fields: Record<string, string>): Promise<Admitted>;
  /** Called with each photo stored, before it is referenced by any row. */
  stored(hash: string): void;
  /** Of these SHA-256s, the photos the server holds (heldPhotos), with their size and media type. */
  held(hashes: string[]): Promise<Map<string, HeldPhoto>>;
}

export interface HeldPhoto {
  size: number;
  mediaType: string;
}

/** The photos a record already stored refers to and whose bytes are in the store: a later upload may name them. */
export async function heldPhotos(
  db: Queryable,
  blobs: BlobStore,
  hashes: readonly string[],
): Promise<Map<string, HeldPhoto>> {
  const wanted = [...new Set(hashes)].filter((hash) => SHA256_HEX.test(hash));
  if (wanted.length === 0) return new Map();
  const held = new Map<string, HeldPhoto>();
  for (const row of await findFotos(db, wanted)) {
    if (await inStore(blobs, row.hash))
      held.set(row.hash, { size: Number(row.size), mediaType: row.media_type });
  }
  return held;
}

/** Whether the store has the bytes of a photo (opened and closed unread). */
async function inStore(blobs: BlobStore, hash: string): Promise<boolean> {
  const stream = await blobs.open(hash);
  stream?.destroy();
  return stream !== undefined;
}

/** Of these photos, those whose bytes the store does not have (a lost file: issue 39). */
export async function missingPhotos(blobs: BlobStore, hashes: Iterable<string>): Promise<Set<string>> {
  const missing = new Set<string>();
  for (const hash of new Set(hashes)) if (!(await inStore(blobs, hash))) missing.add(hash);
  return missing;
}

/** The photo row of a photo just stored, with what its EXIF says (issue 24's photo-evidence flags). */
export function newFoto(slot: number, blob: StoredBlob): NewFoto {
  return {
    slot,
    hash: blob.hash,
    size: blob.size,
    mediaType: blob.mediaType,
    ...(blob.exif ? { exif: blob.exif } : {}),
  };
}

/** A photo's name is only a slot number ('2.jpg'): one with a path, a control character or 255+ characters is a trick. */
function plainFileName(filename: string | undefined): boolean {
  const name = filename ?? '';
  return name.length <= 255 && name !== '.' && name !== '..' && !/[/\\\p{Cc}]/u.test(name);
}

/** The slot a photo goes to: its file name when that is a slot number ('0', '2.jpg'), else the next free one. */
function slotOf(filename: string | undefined, used: Set<number>, max: number): number {
  const named = Number.parseInt((filename ?? '').split('.')[0] ?? '', 10);
  if (Number.isInteger(named) && named >= 0 && named < max && !used.has(named)) return named;
  for (let slot = 0; slot < max; slot += 1) if (!used.has(slot)) return slot;
  throw badRequest('Fotos demais para este registro.');
}

/**
 * Reads the fields, admits the caller when the first photo arrives (or at the end when there is none) and only
 * then stores photo bytes, so a caller who may not upload here cannot fill the photo store.
 */
export async function readUpload<Admitted>(
  request: FastifyRequest,
  flow: FlowDefinition,
  blobs: BlobStore,
  handlers: UploadHandlers<Admitted>,
): Promise<Upload<Admitted>> {
  if (!request.isMultipart()) throw unsupportedMedia('O envio deve ser multipart/form-data.');
  const fields: Record<string, string> = {};
  const fotos: NewFoto[] = [];
  const used = new Set<number>();
  let admission: { admitted: Admitted } | undefined;
  const parts = request.parts({
    // File names as sent: a path in one is refused, not quietly cut to its last segment.
    preservePath: true,
    limits: { fileSize: MAX_PHOTO_BYTES, files: flow.photoSlots, fields: 100, fieldSize: MAX_FIELD_BYTES },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      // A value past fieldSize arrives cut: never store part of what the technician typed.
      if (part.valueTruncated) {
        throw tooLarge(`Um campo do registro excede o tamanho máximo de ${MAX_FIELD_BYTES / 1024} KB.`);
      }
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      continue;
    }
    if (part.fieldname !== 'fotos') {
      part.file.resume();
      throw badRequest('As fotos devem ser enviadas no campo fotos.');
    }
    if (!admission) {
      if (!('projeto' in fields)) {
        part.file.resume();
        throw badRequest('Envie os campos antes das fotos.');
      }
      const admitted = await handlers.admit(fields).catch((error: unknown) => {
        part.file.resume();
        throw error;
      });
      admission = { admitted };
    }
    checkFileName(part);
    const slot = slotOf(part.filename, used, flow.photoSlots);
    const blob = await storePhoto(part, blobs);
    handlers.stored(blob.hash);
    used.add(slot);
    fotos.push(newFoto(slot, blob));
  }
  admission ??= { admitted: await handlers.admit(fields) };
  const named = fields[FOTOS_NO_SERVIDOR];
  delete fields[FOTOS_NO_SERVIDOR];
  if (named !== undefined) await addHeld(named, flow, used, fotos, handlers);
  const originais = fields[FOTOS_ORIGINAIS];
  delete fields[FOTOS_ORIGINAIS];
  if (originais !== undefined) addOriginais(originais, flow, fotos);
  // Not a field of any flow: gone before the flow's schema reads the fields.
  const reenvio = fields[REENVIO] === '1';
  delete fields[REENVIO];
  return { fields, admitted: admission.admitted, fotos, reenvio };
}

/** A photo part whose name is no plain file name is refused before any of its bytes is stored. */
function checkFileName(part: MultipartFile): void {
  if (plainFileName(part.filename)) return;
  part.file.resume();
  throw badRequest('Nome de arquivo de foto inválido.');
}

/**
 * A photo part's bytes stored. Photo bytes are stored before the record's transaction commits: content-addressed,
 * so a replay lands on the same file; a request that fails removes what it stored and nobody refers to
 * (PhotoSweeper).
 */
async function storePhoto(part: MultipartFile, blobs: BlobStore): Promise<StoredBlob> {
  return blobs.putImage(part.file).catch((error: unknown) => {
    // A photo over the limit arrives cut at it: say so, not that it is broken.
    if (part.file.truncated) throw tooLarge(FOTO_GRANDE_DEMAIS);
    if (error instanceof NotAnImageError) throw unsupportedMedia(error.message);
    throw error;
  });
}

export interface PhotoHandlers {
  /** Called with each photo stored, before it is checked. */
  stored(hash: string): void;
  /** Throws to refuse a photo stored in that slot (a photo that is not the record's). */
  check(slot: number, blob: StoredBlob): void;
}

/**
 * A body of photos only, under 'fotos', each named by its slot ('2.jpg') among `slots`, stored as an upload's are
 * and checked one by one as they arrive (issue 39: the lost files of a held record's photos, given back). Fields
 * are ignored. Answers the slots stored.
 */
export async function readPhotos(
  request: FastifyRequest,
  blobs: BlobStore,
  slots: ReadonlySet<number>,
  handlers: PhotoHandlers,
): Promise<number[]> {
  if (!request.isMultipart()) throw unsupportedMedia('O envio deve ser multipart/form-data.');
  if (slots.size === 0) throw badRequest('Este registro não tem fotos.');
  const stored: number[] = [];
  const parts = request.parts({
    preservePath: true,
    limits: { fileSize: MAX_PHOTO_BYTES, files: slots.size, fields: 10, fieldSize: MAX_FIELD_BYTES },
  });
  for await (const part of parts) {
    if (part.type === 'field') continue;
    if (part.fieldname !== 'fotos') {
      part.file.resume();
      throw badRequest('As fotos devem ser enviadas no campo fotos.');
    }
    checkFileName(part);
    const named = /^(\d{1,3})(?:\.\w+)?$/.exec(part.filename ?? '');
    const slot = named ? Number(named[1]) : -1;
    if (!slots.has(slot) || stored.includes(slot)) {
      part.file.resume();
      throw badRequest(
        'Posição de foto inválida para este registro: nomeie cada foto pela sua posição (0.jpg).',
      );
    }
    const blob = await storePhoto(part, blobs);
    handlers.stored(blob.hash);
    handlers.check(slot, blob);
    stored.push(slot);
  }
  if (stored.length === 0) throw badRequest('Envie ao menos uma foto no campo fotos.');
  return stored.sort((a, b) => a - b);
}

const originaisSchema = z.array(z.string().regex(SHA256_HEX, 'Hash de foto original inválido.').nullable(), {
  error: 'Lista de fotos originais inválida.',
});

/** Each photo's original hash, from the device's list by slot (null: a photo sent as taken, or an empty slot). */
function addOriginais(originais: string, flow: FlowDefinition, fotos: NewFoto[]): void {
  let json: unknown;
  try {
    json = JSON.parse(originais);
  } catch {
    throw badRequest('Lista de fotos originais inválida.');
  }
  const list = parseInput(originaisSchema, json);
  if (list.length > flow.photoSlots) throw badRequest('Lista de fotos originais inválida.');
  for (const foto of fotos) {
    const original = list[foto.slot];
    if (original) foto.original = original;
  }
}

/** The photos the device named by hash instead of sending them: each must be held, in a free slot of the flow. */
async function addHeld<Admitted>(
  named: string,
  flow: FlowDefinition,
  used: Set<number>,
  fotos: NewFoto[],
  handlers: UploadHandlers<Admitted>,
): Promise<void> {
  let json: unknown;
  try {
    json = JSON.parse(named);
  } catch {
    throw badRequest('Lista de fotos já enviadas inválida.');
  }
  const list = parseInput(heldListSchema, json);
  if (used.size + list.length > flow.photoSlots) throw badRequest('Fotos demais para este registro.');
  // Counted as this request's while it runs, so a sweep elsewhere cannot remove them before the commit.
  for (const { hash } of list) handlers.stored(hash);
  const held = await handlers.held(list.map(({ hash }) => hash));
  for (const { slot, hash } of list) {
    if (slot >= flow.photoSlots || used.has(slot))
      throw badRequest('Posição de foto inválida para este fluxo.');
    const photo = held.get(hash);
    if (!photo) throw conflict(FOTO_NAO_ENCONTRADA);
    used.add(slot);
    fotos.push({ slot, hash, size: photo.size, mediaType: photo.mediaType });
  }
}

/** What one sweep of the photo store found and did. */
export interface SweepReport {
  /** Photos the store listed. */
  listed: number;
  /** Photos no record refers to, stored before the grace period, removed; and their bytes. */
  removed: number;
  removedBytes: number;
  /** Removals that failed (each told to onError). */
  failed: number;
  /** Temporary files (uploads a crash cut off) older than the grace period, removed. */
  tmp: number;
  /** How long the sweep took. */
  ms: number;
}

export interface PhotoSweeperOptions {
  /**
   * How long a photo no row refers to stays after it was last stored: a request of another process (a cluster's
   * workers, servers on one store) that stored it may be about to commit a row referring to it. 0 (one process, as
   * tests run): a request's photos go as it ends, and sweeps run only when asked.
   */
  graceMs?: number;
  /** Between the end of a sweep and the next one; the grace period by default. */
  periodMs?: number;
  /** The time (ms since the epoch), moved by tests. */
  clock?: () => number;
  onError?: (error: unknown) => void;
  onSwept?: (report: SweepReport) => void;
}

/** Any constant the servers agree on (an int4, beside the schema's hash): 'foto' in ASCII. */
export const SWEEP_LOCK = 0x666f746f;

/**
 * Keeps the photo store to what records refer to. A request's photos are counted as in flight while it runs, and a
 * photo a request of this process holds is never removed: identical photos share one file, and that request may be
 * about to commit a row referring to it. Another process's requests it cannot know, so with a grace period nothing
 * goes as a request ends: the store is swept at start and then periodically (`start`), and a photo no row refers to
 * goes once it was last stored longer ago than the grace period (a store renames a new file onto the name, so
 * storing it again makes it young again). That survives restarts, as no timer in memory did. The temporary files
 * older than the grace period go in the same sweep.
 */
export class PhotoSweeper {
  private readonly inFlight = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly options: PhotoSweeperOptions = {},
  ) {}

  private get graceMs(): number {
    return this.options.graceMs ?? 0;
  }

  /**
   * The photos of one request: `stored` as they are written, `referenced` once a committed row refers to every
   * one of them (nothing to sweep, no question to the database), `sweep` once the request has ended.
   */
  request(): { stored(hash: string): void; referenced(): void; sweep(): Promise<void> } {
    const hashes: string[] = [];
    let allReferenced = false;
    return {
      stored: (hash) => {
        hashes.push(hash);
        this.inFlight.set(hash, (this.inFlight.get(hash) ?? 0) + 1);
      },
      referenced: () => {
        allReferenced = true;
      },
      sweep: async () => {
        for (const hash of hashes) {
          const count = (this.inFlight.get(hash) ?? 1) - 1;
          if (count > 0) this.inFlight.set(hash, count);
          else this.inFlight.delete(hash);
        }
        // With a grace period the next sweep removes what no row refers to once it is old enough.
        if (allReferenced || this.graceMs > 0) return;
        const free = [...new Set(hashes)].filter((hash) => !this.inFlight.has(hash));
        if (free.length === 0) return;
        const referenced = await referencedHashes(this.db, free);
        for (const hash of free) {
          if (!referenced.has(hash) && !this.inFlight.has(hash)) await this.blobs.remove(hash);
        }
      },
    };
  }

  /** Sweeps now in the background, then `periodMs` after each sweep ends; nothing without a grace period. */
  start(): void {
    if (this.graceMs === 0 || this.closed || this.timer || this.running) return;
    const period = this.options.periodMs ?? this.graceMs;
    const run = () => {
      this.timer = undefined;
      this.running = this.sweep()
        .then(
          (report) => {
            if (report) this.options.onSwept?.(report);
          },
          (error: unknown) => this.options.onError?.(error),
        )
        .finally(() => {
          this.running = undefined;
          if (this.closed) return;
          this.timer = setTimeout(run, period);
          this.timer.unref();
        });
    };
    run();
  }

  /** Stops the sweeps (the server is closing): the one running stops after the batch it is on. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * One sweep of the whole store; undefined when another process is sweeping it. On PostgreSQL one process at a
   * time, across a cluster and several servers: it holds a transaction-level advisory lock for the sweep (a session
   * lock would stay with a pooled connection), one per schema, which is one per installation. PGlite is one
   * process, and a transaction there would hold its one connection for the whole sweep: no lock.
   */
  async sweep(): Promise<SweepReport | undefined> {
    if (this.db.engine === 'pglite') return this.sweepWith(this.db);
    return this.db.transaction(async (tx) => {
      const [lock] = await tx.query<{ taken: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema())) AS taken',
        [SWEEP_LOCK],
      );
      return lock?.taken ? this.sweepWith(tx) : undefined;
    });
  }

  private async sweepWith(db: Queryable): Promise<SweepReport> {
    const started = performance.now();
    const before = (this.options.clock ?? Date.now)() - this.graceMs;
    const report: SweepReport = { listed: 0, removed: 0, removedBytes: 0, failed: 0, tmp: 0, ms: 0 };
    for await (const batch of this.blobs.listPhotos()) {
      if (this.closed) break;
      report.listed += batch.length;
      const old = batch.filter((photo) => photo.modifiedAt < before && !this.inFlight.has(photo.hash));
      // Asked just before the removals, batch by batch: a row committed since the listing keeps its photo.
      const referenced = await referencedHashes(
        db,
        old.map((photo) => photo.hash),
      );
      for (const photo of old) {
        if (referenced.has(photo.hash) || this.inFlight.has(photo.hash)) continue;
        // One file that cannot be removed (its permissions, say) is told and the sweep goes on.
        const removed = await this.blobs.removeIfOlder(photo.hash, before).catch((error: unknown) => {
          report.failed += 1;
          this.options.onError?.(error);
          return false;
        });
        if (removed) {
          report.removed += 1;
          report.removedBytes += photo.size;
        }
      }
    }
    if (!this.closed) report.tmp = await this.blobs.removeTmp(before);
    report.ms = Math.round(performance.now() - started);
    return report;
  }
}
