// Logout on the server (migration 0007): a session's token id is recorded as ended until the token would have
// expired, and every server on the database refuses it from then on.
import type { Queryable } from '../db/database.ts';
import { deleteSessoesExpiradas, insertSessaoEncerrada, isSessaoEncerrada } from './queries.ts';
import type { Session } from './tokens.ts';

export async function endSession(db: Queryable, session: Session): Promise<void> {
  if (!session.jti) return;
  await insertSessaoEncerrada(db, session.jti, session.exp);
  // What has expired needs no record: the token itself is refused by then.
  await deleteSessoesExpiradas(db);
}

export async function sessionEnded(db: Queryable, session: Session): Promise<boolean> {
  if (!session.jti) return false;
  return isSessaoEncerrada(db, session.jti);
}
