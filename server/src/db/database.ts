// One small interface over PostgreSQL (node-postgres) and embedded PGlite, so queries run unchanged on both.
import { PGlite } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import type { Readable } from 'node:stream';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { CopyOut, PIECE_BYTES } from './copy-out.ts';
import { openDurablePglite } from './pglite-durable.ts';

export interface Queryable {
  /**
   * `name`: a statement of a hot path (the upload's), prepared once per connection on PostgreSQL so it is not
   * planned again on every call; one name, one SQL text. PGlite ignores it.
   */
  query<Row>(sql: string, params?: readonly unknown[], name?: string): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly engine: 'postgres' | 'pglite';
  /**
   * Reads a query's rows in batches without holding them all (exports, DESIGN.md 'Reading a lot'): a cursor
   * on PostgreSQL, DECLARE ... FETCH on PGlite. Stopping the loop early closes the cursor.
   */
  stream<Row>(sql: string, params?: readonly unknown[], batchSize?: number): AsyncGenerator<Row[]>;
  /**
   * PostgreSQL only: `COPY (sql) TO STDOUT WITH (options)` as a stream of Buffers, a socket read each (CopyOut), for
   * exports the database can write itself (CSV), planned to start at once (no full sort). The SQL takes no
   * parameters: COPY cannot bind them. The stream holds up to `aheadBytes` (at least a read) unread before the
   * query waits.
   */
  copyOut?(sql: string, options: string, aheadBytes?: number): Promise<Readable>;
  /** copyOut of a query of one text column, each value followed by a line break (KML placemarks). */
  copyLines?(sql: string, aheadBytes?: number): Promise<Readable>;
  /**
   * PostgreSQL LISTEN: calls `handler` with each payload NOTIFY sends on `channel`, from any process on the same
   * database (PGlite: this process). Resolves once listening; the returned function stops. `gaps` hears when the
   * listening connection was lost (notifications may be missed from then on) and when it listens again.
   */
  listen(
    channel: string,
    handler: (payload: string) => void,
    gaps?: ListenGaps,
  ): Promise<() => Promise<void>>;
  /** PostgreSQL NOTIFY (pg_notify): delivered to every listener once the sending transaction commits. */
  notify(channel: string, payload: string): Promise<void>;
  /** Runs fn in one transaction: it commits when fn resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a listener hears of its connection: lost (from then on notifications are missed) and listening again. */
export interface ListenGaps {
  lost(): void;
  restored(): void;
}

export interface PostgresOptions {
  connectionString: string;
  /** Schema to put first on the search path (tests give each file its own). */
  schema?: string;
}

export function openPostgres(options: PostgresOptions): Database {
  const listener = postgresListener(options);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: 10,
    // JIT compiles an export's query for seconds before its first row (its per-row PostGIS and jsonb calls make
    // the planner's estimate look expensive) and never pays that back on our queries.
    options: ['-c jit=off', ...(options.schema ? [`-c search_path=${options.schema},public`] : [])].join(' '),
    // A database that does not answer (a network cut drops packets instead of refusing) fails the request in
    // seconds instead of holding it, and keepalives notice a connection that died silently.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // A connection the database drops (restart, failover, network) emits 'error': the pool for an idle client
  // (which it then discards), the client itself when it is checked out. Unheard, either kills the process. The
  // query in flight fails on its own (a 503, see isDatabaseUnavailable), the pool never hands out a client that
  // failed (it checks `_queryable` on release) and opens new connections once the database is back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  /** Runs a COPY on a connection of its own, released when the stream ends or dropped when it is cut off. */
  const copy = async (stream: CopyOut): Promise<Readable> => {
    const client = await pool.connect();
    try {
      // From the first row: with sorting off the planner walks an index in the query's order (the export index)
      // instead of sorting every row before sending one, which it prefers once rows lie out of order on disk.
      await client.query('SET enable_sort = off');
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    client.query(stream);
    let released = false;
    const release = (error?: Error) => {
      if (released) return;
      released = true;
      // A connection whose COPY was cut off mid-way is not reusable: drop it instead of returning it.
      if (error || !stream.readableEnded) {
        client.release(error ?? true);
        return;
      }
      client.query('RESET enable_sort').then(
        () => client.release(),
        (failure: unknown) => client.release(failure instanceof Error ? failure : true),
      );
    };
    stream.on('end', () => release());
    stream.on('error', (error) => release(error));
    stream.on('close', () => release());
    return stream;
  };
  return {
    engine: 'postgres',
    async query<Row>(sql: string, params: readonly unknown[] = [], name?: string) {
      const result = await pool.query({ text: sql, values: [...params], ...(name ? { name } : {}) });
      return result.rows as Row[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      // A client whose ROLLBACK failed is in an unknown state (its connection is likely gone): never reused.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query<Row>(sql: string, params: readonly unknown[] = [], name?: string) {
            const result = await client.query({ text: sql, values: [...params], ...(name ? { name } : {}) });
            return result.rows as Row[];
          },
        };
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch((failure: unknown) => {
          broken = failure instanceof Error ? failure : new Error('ROLLBACK failed');
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async *stream<Row>(sql: string, params: readonly unknown[] = [], batchSize = 2000) {
      const client = await pool.connect();
      const cursor = client.query(new Cursor<Row>(sql, [...params]));
      let broken: Error | undefined;
      try {
        for (;;) {
          const rows = await cursor.read(batchSize).catch((failure: unknown) => {
            broken = failure instanceof Error ? failure : new Error('cursor read failed');
            throw failure;
          });
          if (rows.length === 0) return;
          yield rows;
        }
      } finally {
        // After a failed read the client is dropped, not the cursor closed: on a connection that died, closing
        // would wait forever for an answer.
        if (!broken) {
          await cursor.close().catch((failure: unknown) => {
            broken = failure instanceof Error ? failure : new Error('cursor close failed');
          });
        }
        client.release(broken);
      }
    },
    copyOut: (sql, options, aheadBytes) =>
      copy(new CopyOut(`COPY (${sql}) TO STDOUT WITH (${options})`, false, pieces(aheadBytes))),
    copyLines: (sql, aheadBytes) =>
      copy(new CopyOut(`COPY (${sql}) TO STDOUT WITH (FORMAT binary)`, true, pieces(aheadBytes))),
    listen: (channel, handler, gaps) => listener.listen(channel, handler, gaps),
    async notify(channel: string, payload: string) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

/** The pieces a COPY holds unread for `aheadBytes`. */
function pieces(aheadBytes = 0): number {
  return Math.ceil(aheadBytes / PIECE_BYTES);
}

/** How long to wait for a new connection before the request fails with a 503. */
const CONNECT_TIMEOUT_MS = 5000;
/** How often the listener tries to reconnect while the database is away. */
const RECONNECT_MS = 1000;

/**
 * One connection per process holds every LISTEN (a pool's connections come and go); it reconnects by itself when
 * the database goes away, every RECONNECT_MS until it is back, listening again on every channel.
 */
function postgresListener(options: PostgresOptions) {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const watchers = new Set<ListenGaps>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retry: NodeJS.Timeout | null = null;
  let closed = false;
  /** Whether a connection listened before: the next one is a return after a gap. */
  let listenedBefore = false;

  const reconnectLater = () => {
    if (closed || handlers.size === 0 || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(reconnectLater);
    }, RECONNECT_MS);
    // A pending retry never keeps a process that is shutting down alive.
    retry.unref();
  };

  const connect = (): Promise<pg.Client> => {
    connecting ??= (async () => {
      const next = new pg.Client({
        connectionString: options.connectionString,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        keepAlive: true,
      });
      next.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      next.on('error', () => {
        void next.end().catch(() => undefined);
        // Failures while connecting reject connect() below, whose caller retries or answers 503.
        if (client !== next) return;
        client = null;
        connecting = null;
        for (const watcher of watchers) watcher.lost();
        reconnectLater();
      });
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        void next.end().catch(() => undefined);
        throw error;
      }
      if (closed) {
        void next.end().catch(() => undefined);
        throw new Error('Connection terminated: listener closed');
      }
      const again = listenedBefore;
      listenedBefore = true;
      client = next;
      if (again) for (const watcher of watchers) watcher.restored();
      return next;
    })().catch((error: unknown) => {
      connecting = null;
      throw error;
    });
    return connecting;
  };

  return {
    async listen(channel: string, handler: (payload: string) => void, gaps?: ListenGaps) {
      const first = !handlers.has(channel);
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      try {
        const current = client ?? (await connect());
        if (first && client === current) await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        // The database is away: the caller answers 503 and may listen again later; nothing stays registered.
        set.delete(handler);
        if (set.size === 0) handlers.delete(channel);
        throw error;
      }
      if (gaps) watchers.add(gaps);
      return async () => {
        if (gaps) watchers.delete(gaps);
        set.delete(handler);
        if (set.size > 0) return;
        handlers.delete(channel);
        await client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      watchers.clear();
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}

export interface PgliteOptions {
  /** Directory where the database persists, each commit on disk before it returns; undefined keeps it in memory. */
  dataDir?: string;
  /** A tarball made by dumpDataDir(), to start from a prepared database. */
  loadDataDir?: Blob;
}

export async function openPglite(options: PgliteOptions): Promise<Database & { dump(): Promise<Blob> }> {
  const start = {
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { postgis },
  };
  // On disk, commits are synced before they return (pglite-durable.ts); in memory there is no disk to reach, and
  // the tests' databases start as fast as before.
  const durable = options.dataDir ? await openDurablePglite(options.dataDir, start) : undefined;
  const db = durable?.db ?? (await PGlite.create(start));
  return {
    engine: 'pglite',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<Row>(sql, [...params]);
      return result.rows;
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction(async (tx) =>
        fn({
          async query<Row>(sql: string, params: readonly unknown[] = []) {
            const result = await tx.query<Row>(sql, [...params]);
            return result.rows;
          },
        }),
      );
    },
    // PGlite has one connection: the cursor lives in a transaction, so other queries wait for the export's batches.
    async *stream<Row>(sql: string, params: readonly unknown[] = [], batchSize = 2000) {
      const batches: Row[][] = [];
      // The fetching side and the reading side wake each other through these (TypeScript does not follow
      // closures' assignments to plain `let`s).
      const signal: { wake: (() => void) | null; resume: (() => void) | null } = { wake: null, resume: null };
      let done = false;
      let failure: unknown = null;
      let wanted = true;
      const notify = () => {
        signal.wake?.();
        signal.wake = null;
      };
      const reading = db
        .transaction(async (tx) => {
          await tx.query(`DECLARE novus_export NO SCROLL CURSOR FOR ${sql}`, [...params]);
          for (;;) {
            const { rows } = await tx.query<Row>(`FETCH ${batchSize} FROM novus_export`);
            if (rows.length === 0 || !wanted) break;
            batches.push(rows);
            notify();
            // Backpressure: fetch the next batch only once the reader took this one.
            if (batches.length > 1) await new Promise<void>((resolve) => (signal.resume = resolve));
            if (!wanted) break;
          }
          await tx.query('CLOSE novus_export');
        })
        .catch((error: unknown) => {
          failure = error;
        })
        .finally(() => {
          done = true;
          notify();
        });
      try {
        for (;;) {
          const batch = batches.shift();
          if (batch) {
            signal.resume?.();
            signal.resume = null;
            yield batch;
            continue;
          }
          if (done) break;
          await new Promise<void>((resolve) => (signal.wake = resolve));
        }
        if (failure) throw failure;
      } finally {
        wanted = false;
        signal.resume?.();
        await reading;
      }
    },
    // In this process: never lost, so `gaps` never hears anything.
    async listen(channel: string, handler: (payload: string) => void) {
      const stop = await db.listen(channel, handler);
      return stop;
    },
    async notify(channel: string, payload: string) {
      await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => durable?.close() ?? db.close(),
    dump: () => db.dumpDataDir('gzip'),
  };
}
