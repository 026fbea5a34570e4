// A lost IndexedDB connection reopened and the work run once more (issue 25). Apart from db.ts, so the record
// helpers the first page reads (isPending) do not bring Dexie with them.
import type { Dexie } from 'dexie';
import { isBlobRefused } from './idb-errors';

/** How IndexedDB reports a connection lost under the app (iOS in the background, WebKit bug 277615). */
export function isConnectionLost(error: unknown): boolean {
  // WebKit's refusal of a Blob is an UnknownError too: the connection is fine, the photos' form is not (issue 40).
  if (isBlobRefused(error)) return false;
  for (let cause = error; typeof cause === 'object' && cause !== null;) {
    const name = 'name' in cause ? cause.name : undefined;
    const message = 'message' in cause && typeof cause.message === 'string' ? cause.message : '';
    if (name === 'DatabaseClosedError' || name === 'InvalidStateError') return true;
    if (name === 'UnknownError' || /connection to indexed database server lost/i.test(message)) return true;
    cause = 'inner' in cause ? cause.inner : null;
  }
  return false;
}

/**
 * Runs a read or a write of one of the device's databases (Novus, NovusCopias); when the connection was lost under it, reopens the database and
 * runs it once more before any error reaches the technician.
 */
export async function reopening<T>(db: Dexie, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isConnectionLost(error)) throw error;
    db.close({ disableAutoOpen: false });
    await db.open();
    return run();
  }
}
