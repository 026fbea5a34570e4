// First start: with no users at all, create the first administrador so somebody can log in.
import crypto from 'node:crypto';
import { hashPassword } from './auth/passwords.ts';
import type { Database } from './db/database.ts';
import { isUniqueViolation } from './db/errors.ts';
import { countUsers, insertUser } from './modules/usuarios/queries.ts';

export interface FirstAdmin {
  login: string;
  /** Set only when it was generated here: printed once, stored nowhere in clear. */
  generatedPassword: string | undefined;
}

export async function ensureFirstAdmin(
  db: Database,
  login: string,
  password: string | undefined,
): Promise<FirstAdmin | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const generatedPassword = password ? undefined : crypto.randomBytes(12).toString('base64url');
  try {
    await insertUser(db, {
      login,
      firstName: 'Administrador',
      lastName: '',
      passwordHash: await hashPassword(password ?? generatedPassword ?? ''),
      roles: ['administrador'],
      cliente: undefined,
    });
  } catch (error) {
    // Another server starting at the same moment on the same database created it first.
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  return { login, generatedPassword };
}
