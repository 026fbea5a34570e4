// The password's check as every password route makes it (the login, and the second factor's set-up at login), and
// the rate limit's refusals they share: a wrong password or a wrong code counts toward it, and past it even the
// right ones get 429 (login-limiter.ts).
import { SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import type { Database } from '../db/database.ts';
import { type AppError, tooManyRequests, unauthorized } from '../errors.ts';
import { findUserByLogin, type UsuarioRow } from '../modules/usuarios/queries.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { DUMMY_HASH, verifyPassword } from './passwords.ts';

const TOO_MANY = 'Muitas tentativas de login. Aguarde alguns minutos e tente novamente.';

export class PasswordLogin {
  constructor(
    private readonly db: Database,
    readonly limiter: LoginLimiter,
  ) {}

  /** A 429 while `login` or `address` has failed too often. */
  async ensureNotBlocked(login: string, address: string): Promise<void> {
    if (await this.limiter.isBlocked(this.db, login, address)) throw tooManyRequests(TOO_MANY);
  }

  /** The user of `login` when `password` is theirs; otherwise a 401, counted (the same time either way). */
  async check(login: string, password: string, address: string): Promise<UsuarioRow> {
    await this.ensureNotBlocked(login, address);
    const user = await findUserByLogin(this.db, login);
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !valid) {
      await this.limiter.recordFailure(this.db, login, address);
      throw unauthorized('Login ou senha inválidos.');
    }
    return user;
  }

  /** A wrong verification code: counted as a wrong password is; the 401 to throw. */
  async codigoRecusado(login: string, address: string): Promise<AppError> {
    await this.limiter.recordFailure(this.db, login, address);
    return unauthorized(SEGUNDO_FATOR_TEXTS.invalido);
  }
}
