// Who may call a route: every route states its roles here, in one place (DESIGN.md 'Permissions').
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from '@novus/domain/roles';
import { forbidden, unauthorized } from '../errors.ts';
import type { Session } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified session of the caller, if the request carried a valid token. */
    session: Session | undefined;
  }
}

/** The caller's session, or a 401 when there is none. */
export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized();
  return request.session;
}

/** A preHandler that lets through a signed-in caller holding one of the roles (any role when none are given). */
export function allow(...roles: Role[]): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const session = requireSession(request);
    if (roles.length > 0 && !roles.some((role) => session.roles.includes(role))) throw forbidden();
  };
}
