// Logout on the server (migration 0007): a session's token id is recorded as ended until the token would have
// expired, and every server on the database refuses it from then on.
import type { Queryable } from '../db/database.ts';
import type { Session } from './tokens.ts';

export async function endSession(db: Queryable, session: Session): Promise<void> {
  if (!session.jti) return;
  await db.query(
    `INSERT INTO sessoes_encerradas (jti, expira) VALUES ($1, to_timestamp($2)) ON CONFLICT (jti) DO NOTHING`,
    [session.jti, session.exp],
  );
  // What has expired needs no record: the token itself is refused by then.
  await db.query('DELETE FROM sessoes_encerradas WHERE expira < now()');
}

export async function sessionEnded(db: Queryable, session: Session): Promise<boolean> {
  if (!session.jti) return false;
  return (await db.query('SELECT 1 FROM sessoes_encerradas WHERE jti = $1', [session.jti])).length > 0;
}
