// Points stored by any server process reach the open supervisor maps of their project (DESIGN.md 'Reading a
// lot'): NOTIFY on one channel, one LISTEN per process, handed out in-process by project. Uploads do not wait for
// it: the points published within BATCH_MS go out together, as few NOTIFYs as their size allows (issue 22).
import type { PontoEvento } from '@novus/domain/mapa/api';
import type { Database } from '../db/database.ts';

const CHANNEL = 'novus_pontos';

/** What travels on the channel: the map's event plus what access needs (which project and zone). */
export interface PontoNotificado extends PontoEvento {
  projeto: string;
  zona: string | null;
}

type Handler = (ponto: PontoNotificado) => void;

/** How long a published point may wait for others to go out with it. */
const BATCH_MS = 20;
/** PostgreSQL refuses payloads of 8,000 bytes or more: a batch is cut below that. */
const MAX_PAYLOAD = 7800;

export class PontosLive {
  private readonly handlers = new Map<string, Set<Handler>>();
  private listening: Promise<() => Promise<void>> | null = null;
  private batch: string[] = [];
  private flushing: NodeJS.Timeout | null = null;
  private sent: Promise<void> = Promise.resolve();
  /** The next batch's promise while points wait for it, and what resolves it. */
  private next: Promise<void> | null = null;
  private sentNext: () => void = () => undefined;

  /** `onError` hears a batch that could not be sent (the database away): the maps miss those points. */
  constructor(
    private readonly db: Database,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Calls `handler` with each point stored in the project from now on; the returned function stops. */
  async subscribe(projeto: string, handler: Handler): Promise<() => void> {
    const set = this.handlers.get(projeto) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(projeto, set);
    // A failed LISTEN (the database is away) is not kept: the next subscriber tries again.
    this.listening ??= this.db
      .listen(CHANNEL, (payload) => this.dispatch(payload))
      .catch((error: unknown) => {
        this.listening = null;
        throw error;
      });
    try {
      await this.listening;
    } catch (error) {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(projeto);
      throw error;
    }
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(projeto);
    };
  }

  /** Queues the point for the next batch; resolves once that batch went out (or failed, told to onError). */
  publish(ponto: PontoNotificado): Promise<void> {
    this.batch.push(JSON.stringify(ponto));
    if (!this.next) {
      this.next = new Promise<void>((resolve) => (this.sentNext = resolve));
      this.flushing = setTimeout(() => void this.flush(), BATCH_MS);
    }
    return this.next;
  }

  /** Sends what is queued; resolves once every batch so far went out (or failed). */
  flush(): Promise<void> {
    if (this.flushing) clearTimeout(this.flushing);
    this.flushing = null;
    this.next = null;
    const resolve = this.sentNext;
    const points = this.batch;
    this.batch = [];
    const payloads: string[] = [];
    let current: string[] = [];
    let size = 2;
    for (const point of points) {
      if (current.length > 0 && size + point.length + 1 > MAX_PAYLOAD) {
        payloads.push(`[${current.join(',')}]`);
        current = [];
        size = 2;
      }
      current.push(point);
      size += point.length + 1;
    }
    if (current.length > 0) payloads.push(`[${current.join(',')}]`);
    for (const payload of payloads) {
      this.sent = this.sent.then(() => this.db.notify(CHANNEL, payload).catch(this.onError));
    }
    void this.sent.then(resolve);
    return this.sent;
  }

  async close(): Promise<void> {
    await this.flush();
    this.handlers.clear();
    const stop = await this.listening?.catch(() => undefined);
    this.listening = null;
    await stop?.().catch(() => undefined);
  }

  private dispatch(payload: string) {
    let pontos: PontoNotificado[];
    try {
      // Written by flush() above: a batch; a single point from a server of the version before batches.
      const parsed = JSON.parse(payload) as PontoNotificado[] | PontoNotificado;
      pontos = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      return;
    }
    for (const ponto of pontos) {
      for (const handler of this.handlers.get(ponto.projeto) ?? []) handler(ponto);
    }
  }
}
