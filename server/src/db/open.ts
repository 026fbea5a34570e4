// Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR) and migrates it;
// a server process waits for a PostgreSQL that is not there yet (starting up, restarting, unreachable).
import path from 'node:path';
import { type Database, openPglite, openPostgres } from './database.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { migrate } from './migrate.ts';

interface DatabaseConfig {
  databaseUrl: string | undefined;
  dataDir: string;
}

/** Opens and migrates at once, failing when the database is not there (the operator's commands). */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const db = await connectDatabase(config);
  await migrate(db);
  return db;
}

/**
 * Opens without touching the schema: PGlite opens its folder here; PostgreSQL's pool connects only when first
 * asked, so this never fails for a database that is away (DatabaseReadiness waits for it).
 */
export function connectDatabase(config: DatabaseConfig): Promise<Database> {
  return config.databaseUrl
    ? Promise.resolve(openPostgres({ connectionString: config.databaseUrl }))
    : openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
}

/** The first retry comes this soon; each next one twice as late, up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 250;
/** A database back from a long outage is found within this (or at once, by a request that asks: check()). */
const RETRY_MAX_MS = 5000;
/** A request asking again sooner than this after a failed check is told 'not yet' without asking the database. */
const CHECK_SPACING_MS = 200;

export interface ReadinessOptions {
  /** Called before each wait: the error that says the database is away, the attempt (from 1) and the wait. */
  onWait?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Called once the work succeeds after at least one wait, with how long it waited in all. */
  onReady?: (waitedMs: number) => void;
}

/**
 * What a process must do on the database before it serves (migrate, create the first administrador), retried
 * with backoff while the database is unavailable (isDatabaseUnavailable: refused, starting up, shutting down), so a
 * process started before its PostgreSQL waits for it instead of exiting. Any other error fails `until()`: a
 * broken migration or a wrong password is not something to wait for.
 */
export class DatabaseReadiness {
  #ready = false;
  #checking: Promise<boolean> | undefined;
  #lastFailure = 0;
  #lastError: unknown;
  #waiting: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly options: ReadinessOptions = {},
  ) {}

  /** Whether the work has succeeded: the process may serve. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Resolves once the work succeeded, retrying while the database is unavailable; rejects on any other error. */
  until(): Promise<void> {
    this.#waiting ??= this.#retry();
    return this.#waiting;
  }

  /**
   * Tries the work now, for a request arriving while the process waits: one arriving as the database comes back
   * is served without waiting for the next retry. Joins a try in flight, and does not ask again sooner than
   * CHECK_SPACING_MS after a failed one. Resolves false while the database is unavailable.
   */
  check(): Promise<boolean> {
    if (this.#ready) return Promise.resolve(true);
    if (!this.#checking && Date.now() - this.#lastFailure < CHECK_SPACING_MS) return Promise.resolve(false);
    return this.#attempt();
  }

  /** One try of the work at a time: every caller in the meantime shares it. */
  #attempt(): Promise<boolean> {
    if (this.#ready) return Promise.resolve(true);
    this.#checking ??= this.work()
      .then(
        () => {
          this.#ready = true;
          this.#wake?.();
          return true;
        },
        (error: unknown) => {
          this.#lastFailure = Date.now();
          if (!isDatabaseUnavailable(error)) throw error;
          this.#lastError = error;
          return false;
        },
      )
      .finally(() => (this.#checking = undefined));
    return this.#checking;
  }

  async #retry(): Promise<void> {
    const started = Date.now();
    let waited = false;
    for (let attempt = 1, delay = RETRY_FIRST_MS; ; attempt += 1, delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      if (await this.#attempt()) break;
      this.options.onWait?.(this.#lastError, attempt, delay);
      waited = true;
      // A request's check that succeeds ends the wait at once.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
    if (waited) this.options.onReady?.(Date.now() - started);
  }
}
