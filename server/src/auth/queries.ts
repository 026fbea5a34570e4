// SQL of signing in: the caller as the database knows them, ended sessions (migration 0007) and failed logins
// (migration 0008).
import type { Queryable } from '../db/database.ts';

export interface ActorRow {
  id: string;
  login: string;
  first_name: string;
  last_name: string;
  roles: string[];
  cliente: string | null;
  zonas: string[];
}

/** A user with their zones, read on every request: roles and client may have changed since the token was made. */
export async function findActor(db: Queryable, id: string): Promise<ActorRow | undefined> {
  const rows = await db.query<ActorRow>(
    `SELECT id, login, first_name, last_name, roles, cliente,
       ARRAY(SELECT zona::text FROM usuario_zonas WHERE usuario = u.id) AS zonas
     FROM usuarios u WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** Records a token id as ended until `expira` (seconds since the epoch), once. */
export async function insertSessaoEncerrada(db: Queryable, jti: string, expira: number): Promise<void> {
  await db.query(
    `INSERT INTO sessoes_encerradas (jti, expira) VALUES ($1, to_timestamp($2)) ON CONFLICT (jti) DO NOTHING`,
    [jti, expira],
  );
}

export async function deleteSessoesExpiradas(db: Queryable): Promise<void> {
  await db.query('DELETE FROM sessoes_encerradas WHERE expira < now()');
}

export async function isSessaoEncerrada(db: Queryable, jti: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM sessoes_encerradas WHERE jti = $1', [jti])).length > 0;
}

/** The failures of each of two keys (a login's, an address's) within the last `windowSeconds`. */
export async function countLoginFalhas(
  db: Queryable,
  loginKey: string,
  addressKey: string,
  windowSeconds: number,
): Promise<{ login: number; address: number }> {
  const [counts] = await db.query<{ login: number; address: number }>(
    `SELECT count(*) FILTER (WHERE chave = $1)::int AS login, count(*) FILTER (WHERE chave = $2)::int AS address
     FROM login_falhas WHERE chave IN ($1, $2) AND em > now() - make_interval(secs => $3)`,
    [loginKey, addressKey, windowSeconds],
  );
  return { login: counts?.login ?? 0, address: counts?.address ?? 0 };
}

/** One failure now for each key. */
export async function insertLoginFalhas(db: Queryable, keys: string[]): Promise<void> {
  await db.query('INSERT INTO login_falhas (chave) SELECT unnest($1::text[])', [keys]);
}

/** The keys' failures older than the last `windowSeconds`. */
export async function deleteLoginFalhasAntigas(
  db: Queryable,
  keys: string[],
  windowSeconds: number,
): Promise<void> {
  await db.query(
    'DELETE FROM login_falhas WHERE chave = ANY($1::text[]) AND em <= now() - make_interval(secs => $2)',
    [keys, windowSeconds],
  );
}

export async function deleteLoginFalhas(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_falhas WHERE chave = $1', [key]);
}
