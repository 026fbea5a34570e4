// What every request asks before its work (issue 22): is the token's signature good, has its session ended, who
// is the user now, which zones does the project have. Asked of the database on every request, that was three of
// an upload's eleven statements. Here each answer is kept for a few seconds, and forgotten by every server at
// once when it may have changed: a trigger on the tables it reads (migration 0011) NOTIFYs `novus_acesso` on
// commit, each process LISTENs; while its LISTEN connection is down (a notification could be missed) nothing is
// kept. A write of this process's back office forgets at once, before it answers (`forgetAfterWrites`).
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';

const CHANNEL = 'novus_acesso';
/** How long an answer is kept without a word from the database. */
export const KEEP_MS = 5000;
/** Past this many answers kept, the expired ones go (a bound on memory, not a policy). */
const MAX_ENTRIES = 20_000;

interface Entry {
  value: Promise<unknown>;
  until: number;
}

export class Callers {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every forget: an answer read before it is not kept after it. */
  private generation = 0;
  private listening: 'no' | 'starting' | 'yes' = 'no';
  private retryAt = 0;
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The answer kept under `key`, or `load`'s, kept until `expires` (ms since the epoch) at the latest, and no
   * longer than KEEP_MS. A failed load is not kept.
   */
  async get<T>(key: string, load: () => Promise<T>, expires = Infinity): Promise<T> {
    const now = this.now();
    const kept = this.entries.get(key);
    if (kept && kept.until > now) return kept.value as Promise<T>;
    if (this.listening !== 'yes') {
      this.startListening(now);
      return load();
    }
    const generation = this.generation;
    const value = load();
    const entry = { value, until: Math.min(now + KEEP_MS, expires) };
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) this.sweep(now);
    value.then(
      () => {
        // Something changed while it was read: the answer may be the old one.
        if (generation !== this.generation && this.entries.get(key) === entry) this.entries.delete(key);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  forget(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /**
   * Forgets before a write of this process answers (a user changed, a logout): its caller's next request, on
   * this process, must see it. Uploads, the only frequent writes, change nothing kept here.
   */
  forgetAfterWrites(app: FastifyInstance, keeps: (method: string, url: string) => boolean): void {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && !keeps(request.method, request.url)) {
        this.forget();
      }
      return payload;
    });
  }

  async close(): Promise<void> {
    this.listening = 'no';
    this.retryAt = Infinity;
    this.forget();
    await this.stop?.().catch(() => undefined);
  }

  private startListening(now: number): void {
    if (this.listening !== 'no' || now < this.retryAt) return;
    this.listening = 'starting';
    this.db
      .listen(CHANNEL, () => this.forget(), {
        lost: () => {
          this.listening = 'starting';
          this.forget();
        },
        restored: () => {
          this.forget();
          this.listening = 'yes';
        },
      })
      .then(
        (stop) => {
          this.stop = stop;
          if (this.retryAt === Infinity) {
            void stop().catch(() => undefined);
            return;
          }
          this.listening = 'yes';
        },
        () => {
          // The database is away: ask again in a while, answering from it meanwhile.
          this.listening = 'no';
          this.retryAt = this.now() + 1000;
        },
      );
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
    if (this.entries.size > MAX_ENTRIES) this.forget();
  }
}
