// SQL of the app's log: what devices and the back office report for support to read.
import type { Queryable } from '../../db/database.ts';

export interface NewLog {
  severity: string;
  message: string;
  /** Any JSON the app sent with the message. */
  extras?: unknown;
  /** The caller's user id, when the request carried a session. */
  usuario: string | null;
}

export async function insertLog(db: Queryable, log: NewLog): Promise<void> {
  await db.query('INSERT INTO logs (severity, message, extras, usuario) VALUES ($1, $2, $3, $4)', [
    log.severity,
    log.message,
    log.extras === undefined ? null : JSON.stringify(log.extras),
    log.usuario,
  ]);
}
