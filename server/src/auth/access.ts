// Who may call a route and see an object: every route states its roles through `allow`, and every object
// read or written goes through one of the policies below (DESIGN.md 'Permissions'), never scattered ifs.
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { isRole, type Role } from '@novus/domain/roles';
import type { Queryable } from '../db/database.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { Callers } from './callers.ts';
import { findActor } from './queries.ts';
import type { Session } from './tokens.ts';

/** The caller as the database knows them now (roles and client may have changed since the token was made). */
export interface Actor {
  id: string;
  nome: string;
  roles: Role[];
  cliente: string | null;
  /** Zones assigned to the user (technicians). */
  zonas: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified session of the caller, if the request carried a valid token. */
    session: Session | undefined;
    /** Set by `allow` once the caller is known to exist and hold one of the route's roles. */
    actor: Actor | undefined;
  }
}

export interface Access {
  /** A preHandler that lets through a signed-in caller holding one of the roles (any role when none given). */
  allow(...roles: Role[]): preHandlerAsyncHookHandler;
  /** The caller admitted by `allow`. */
  actor(request: FastifyRequest): Actor;
}

/** The roles each `allow` preHandler admits, so the API documentation states every route's roles (openapi.ts). */
const allowedRoles = new WeakMap<object, readonly Role[]>();

/** The roles a route's preHandler(s) admit: undefined when no `allow` guards it, [] when any signed-in user. */
export function routeRoles(preHandler: unknown): readonly Role[] | undefined {
  const handlers: unknown[] = Array.isArray(preHandler) ? preHandler : [preHandler];
  for (const handler of handlers) {
    const roles = typeof handler === 'function' ? allowedRoles.get(handler) : undefined;
    if (roles) return roles;
  }
  return undefined;
}

export function createAccess(db: Queryable, callers: Callers): Access {
  return {
    allow(...roles: Role[]) {
      const handler = async (request: FastifyRequest) => {
        const { session } = request;
        if (!session) throw unauthorized();
        const row = await callers.get(`usuário:${session.sub}`, () => findActor(db, session.sub));
        // A deleted user's token no longer opens anything.
        if (!row) throw unauthorized();
        const actor: Actor = {
          id: row.id,
          nome: displayName(row),
          roles: row.roles.filter(isRole),
          cliente: row.cliente,
          zonas: row.zonas,
        };
        if (roles.length > 0 && !roles.some((role) => actor.roles.includes(role))) throw forbidden();
        request.actor = actor;
      };
      allowedRoles.set(handler, roles);
      return handler;
    },
    actor(request: FastifyRequest) {
      if (!request.actor) throw unauthorized();
      return request.actor;
    },
  };
}

/** How a user is named to people (session, actor): first and last name, else the login. */
export function displayName(user: { first_name: string; last_name: string; login: string }): string {
  return [user.first_name, user.last_name].join(' ').trim() || user.login;
}

/** The caller's session, or a 401 when there is none (for routes any signed-in user may call). */
export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized();
  return request.session;
}

const has = (actor: Actor, role: Role) => actor.roles.includes(role);

/** Which projects an actor may read: all, or those of a client and/or those made available to Interpres. */
export interface ProjetoScope {
  all: boolean;
  cliente: string | null;
  interpres: boolean;
}

export function projetoScope(actor: Actor): ProjetoScope {
  return {
    all: has(actor, 'administrador'),
    cliente: has(actor, 'supervisor') ? actor.cliente : null,
    interpres: has(actor, 'interpretador') || has(actor, 'externo'),
  };
}

export const policies = {
  readCliente(actor: Actor, clienteId: string): boolean {
    return has(actor, 'administrador') || (has(actor, 'supervisor') && actor.cliente === clienteId);
  },
  readProjeto(actor: Actor, projeto: { cliente: string; disponivelInterpres: boolean }): boolean {
    const scope = projetoScope(actor);
    return (
      scope.all ||
      (scope.cliente !== null && scope.cliente === projeto.cliente) ||
      (scope.interpres && projeto.disponivelInterpres)
    );
  },
  /**
   * A flow's records listed by project, personal data included (LPT Agiltec's cpf, telefone, email): whoever
   * reads the project, and — for the flows the devices download by project — the technicians of one of its zones.
   */
  readRegistrosByProjeto(
    actor: Actor,
    projeto: { cliente: string; disponivelInterpres: boolean; zonas: string[] },
    devices: boolean,
  ): boolean {
    return (
      policies.readProjeto(actor, projeto) ||
      (devices && has(actor, 'tecnico') && projeto.zonas.some((zona) => actor.zonas.includes(zona)))
    );
  },
  /** Records and their photos: the client's supervisor, or a technician of the record's zone or its author. */
  readRegistro(
    actor: Actor,
    registro: {
      cliente: string;
      zona: string | null;
      tecnico: string | null;
      disponivel_interpres?: boolean;
    },
  ): boolean {
    return (
      has(actor, 'administrador') ||
      (has(actor, 'supervisor') && actor.cliente === registro.cliente) ||
      // The review (issue 24): the interpretador and the externo read the records of Interpres projects.
      ((has(actor, 'interpretador') || has(actor, 'externo')) && registro.disponivel_interpres === true) ||
      (has(actor, 'tecnico') &&
        ((registro.zona !== null && actor.zonas.includes(registro.zona)) || registro.tecnico === actor.id))
    );
  },
  /**
   * What the phone that sent a record may do with it after (issue 39: hear of it, give back its photos): its
   * technician's, or an administrador's. The zone's other technicians read it, but it is not theirs to restore.
   */
  ownRegistro(actor: Actor, registro: { tecnico: string | null }): boolean {
    return has(actor, 'administrador') || (has(actor, 'tecnico') && registro.tecnico === actor.id);
  },
  readZona(actor: Actor, zona: { id: string; cliente: string }): boolean {
    return (
      has(actor, 'administrador') ||
      (has(actor, 'supervisor') && actor.cliente === zona.cliente) ||
      (has(actor, 'tecnico') && actor.zonas.includes(zona.id))
    );
  },
  /**
   * The map of a project: whole for its client's supervisor and administrators; for a technician, only their
   * zones of it; null when neither.
   */
  mapScope(actor: Actor, projeto: { cliente: string; zonas: string[] }): 'all' | string[] | null {
    if (has(actor, 'administrador') || (has(actor, 'supervisor') && actor.cliente === projeto.cliente))
      return 'all';
    const zonas = projeto.zonas.filter((zona) => actor.zonas.includes(zona));
    return has(actor, 'tecnico') && zonas.length > 0 ? zonas : null;
  },
  /** Technicians upload to the projects holding one of their zones. */
  uploadTo(actor: Actor, projetoZonas: string[]): boolean {
    return (
      has(actor, 'administrador') ||
      (has(actor, 'tecnico') && projetoZonas.some((z) => actor.zonas.includes(z)))
    );
  },
};

/** Throws 403 unless the policy allowed it. */
export function ensure(allowed: boolean): void {
  if (!allowed) throw forbidden();
}
