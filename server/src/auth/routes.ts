// POST /api/auth/login, POST /api/auth/logout, GET /api/auth/me.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as api from '@novus/domain/api/auth';
import { SEGUNDO_FATOR_TEXTS } from '@novus/domain/auth';
import { isRole } from '@novus/domain/roles';
import type { Database } from '../db/database.ts';
import { route } from '../contract.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { type UsuarioRow, userZonas } from '../modules/usuarios/queries.ts';
import { displayName, requireSession } from './access.ts';
import type { Cifra } from './cifra.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { PasswordLogin } from './password-login.ts';
import { aceitarCodigo, confirmarPendente, exigidoPara } from './segundo-fator.ts';
import { endSession } from './sessions.ts';
import type { TokenService } from './tokens.ts';

export const AUTH_COOKIE = 'auth_token';

export interface AuthDeps {
  db: Database;
  tokens: TokenService;
  limiter: LoginLimiter;
  /** Seals the TOTP secrets (cifra.ts). */
  cifra: Cifra;
}

/**
 * Opens a session for `user`, as a password login and the company's account's callback (oidc-routes.ts) both do:
 * the signed token in the httpOnly cookie, valid for AUTH_TOKEN_DAYS; answers the session's claims.
 */
export async function abrirSessao(
  { db, tokens }: Pick<AuthDeps, 'db' | 'tokens'>,
  user: UsuarioRow,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const claims = {
    nome: displayName(user),
    // the database holds only the five roles (usuarios' validation); typed as such for the answer
    roles: user.roles.filter(isRole),
    zonas: await userZonas(db, user.id),
  };
  const { token, exp } = await tokens.sign(user.id, claims);
  reply.setCookie(AUTH_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: tokens.ttlSeconds,
  });
  return { ...claims, exp };
}

export async function authRoutes(
  app: FastifyInstance,
  { db, tokens, limiter, cifra }: AuthDeps,
): Promise<void> {
  const passwords = new PasswordLogin(db, limiter);

  /**
   * The second step of a password login (issue 42), once the password is right: an account with the second factor
   * on must send its code; a role the administrador requires it of, not set up yet, sends the first code of the
   * secret it set up (POST /api/auth/segundo-fator), which turns it on and gives the recovery codes. A wrong code
   * counts toward the rate limit as a wrong password does. Nothing here opens a session.
   */
  async function segundaEtapa(
    user: UsuarioRow,
    codigo: string | undefined,
    login: string,
    address: string,
  ): Promise<string[] | undefined> {
    const recusar = () => passwords.codigoRecusado(login, address);
    const { totp_segredo: segredo } = user;
    if (segredo !== null) {
      if (codigo === undefined) throw unauthorized(SEGUNDO_FATOR_TEXTS.pedir);
      if (!(await aceitarCodigo(db, cifra, { id: user.id, totp_segredo: segredo }, codigo)))
        throw await recusar();
      return undefined;
    }
    if (!(await exigidoPara(db, user.roles))) return undefined;
    if (codigo === undefined || user.totp_pendente === null) throw forbidden(SEGUNDO_FATOR_TEXTS.configurar);
    const codigos = await confirmarPendente(db, cifra, user, codigo);
    if (!codigos) throw await recusar();
    return codigos;
  }

  route(app, null, api.login, async ({ body: input, request, reply }) => {
    const user = await passwords.check(input.login, input.password, request.ip);
    const codigosRecuperacao = await segundaEtapa(user, input.codigo, input.login, request.ip);
    await limiter.recordSuccess(db, input.login);
    const sessao = await abrirSessao({ db, tokens }, user, request, reply);
    return { ...sessao, ...(codigosRecuperacao ? { codigosRecuperacao } : {}) };
  });

  route(app, null, api.logout, async ({ request, reply }) => {
    if (request.session) await endSession(db, request.session);
    reply.clearCookie(AUTH_COOKIE, { path: '/' });
    return undefined;
  });

  route(app, null, api.me, async ({ request }) => {
    const { nome, roles, zonas, exp } = requireSession(request);
    return { nome, roles: roles.filter(isRole), zonas, exp };
  });
}
