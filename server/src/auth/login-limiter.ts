// Counts failed logins per login and per address in a sliding window, to slow down password guessing. The
// failures live in the database (migration 0008), so several server processes on one database share the count.
import type { Queryable } from '../db/database.ts';
import {
  countLoginFalhas,
  deleteLoginFalhas,
  deleteLoginFalhasAntigas,
  insertLoginFalhas,
} from './queries.ts';

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
    const counts = await countLoginFalhas(
      db,
      loginKey(login),
      addressKey(address),
      this.options.windowMs / 1000,
    );
    return counts.login >= this.options.maxPerLogin || counts.address >= this.options.maxPerAddress;
  }

  async recordFailure(db: Queryable, login: string, address: string): Promise<void> {
    const keys = [loginKey(login), addressKey(address)];
    await insertLoginFalhas(db, keys);
    await deleteLoginFalhasAntigas(db, keys, this.options.windowMs / 1000);
  }

  async recordSuccess(db: Queryable, login: string): Promise<void> {
    await deleteLoginFalhas(db, loginKey(login));
  }
}
