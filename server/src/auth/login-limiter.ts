// Counts failed logins per login and per address in a sliding window, to slow down password guessing. The
// failures live in the database (migration 0008), so several server processes on one database share the count.
import type { Queryable } from '../db/database.ts';

export interface LimiterOptions {
  maxPerLogin: number;
  maxPerAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: LimiterOptions = { maxPerLogin: 5, maxPerAddress: 20, windowMs: 15 * 60 * 1000 };

const loginKey = (login: string) => `login:${login.toLowerCase()}`;
const addressKey = (address: string) => `addr:${address}`;

export class LoginLimiter {
  constructor(private readonly options: LimiterOptions = DEFAULT_LIMITS) {}

  async isBlocked(db: Queryable, login: string, address: string): Promise<boolean> {
    const [counts] = await db.query<{ login: number; address: number }>(
      `SELECT count(*) FILTER (WHERE chave = $1)::int AS login, count(*) FILTER (WHERE chave = $2)::int AS address
       FROM login_falhas WHERE chave IN ($1, $2) AND em > now() - make_interval(secs => $3)`,
      [loginKey(login), addressKey(address), this.options.windowMs / 1000],
    );
    return (
      (counts?.login ?? 0) >= this.options.maxPerLogin || (counts?.address ?? 0) >= this.options.maxPerAddress
    );
  }

  async recordFailure(db: Queryable, login: string, address: string): Promise<void> {
    const keys = [loginKey(login), addressKey(address)];
    await db.query('INSERT INTO login_falhas (chave) SELECT unnest($1::text[])', [keys]);
    await db.query(
      'DELETE FROM login_falhas WHERE chave = ANY($1::text[]) AND em <= now() - make_interval(secs => $2)',
      [keys, this.options.windowMs / 1000],
    );
  }

  async recordSuccess(db: Queryable, login: string): Promise<void> {
    await db.query('DELETE FROM login_falhas WHERE chave = $1', [loginKey(login)]);
  }
}
