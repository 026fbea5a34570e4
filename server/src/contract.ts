// A route registered from its endpoint's declaration (domain/src/api/contract.ts): the roles checked by `allow`
// first, then the params, query and body parsed with the declared schemas (400 with the same Portuguese words
// as parseInput), and the handler's return typed by the declared answer, so a wrong answer does not compile.
// The declaration rides on the route's config, where the API documentation reads it (openapi.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerInputOf, Endpoint, Parsed } from '@novus/domain/api/contract';
import type { Access } from './auth/access.ts';
import { parseInput } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration the route was registered from. */
    endpoint?: Endpoint;
  }
}

export interface Handling<E extends Endpoint> extends Parsed<E> {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A handler that sent its answer through `reply` itself (a file, a stream) returns this. */
export const SENT = Symbol('sent');

/** What a handler gives back: the declared answer (sent with the declared status), or SENT. */
export type Handled<E extends Endpoint> = AnswerInputOf<E> | typeof SENT;

/**
 * A part the route parses itself: a multipart body, read part by part (photos are streamed, never parsed whole),
 * or what the declaration leaves to the route (`readByRoute`).
 */
const readsOwn = (declaration: Endpoint, part: 'query' | 'body') =>
  declaration.readByRoute?.includes(part) === true ||
  (part === 'body' && declaration.consumes?.includes('multipart/form-data') === true);

/** `access` may be null for public routes ('público', or 'sessão' checked by the handler). */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  access: Access | null,
  declaration: E,
  handler: (handling: Handling<E>) => Promise<Handled<E>>,
): void {
  const { allow, params, query, body } = declaration;
  if (Array.isArray(allow) && access === null) throw new Error(`${declaration.path}: roles need access`);
  const preHandler = Array.isArray(allow) && access ? access.allow(...allow) : undefined;
  app.route({
    method: declaration.method,
    url: declaration.path,
    config: { endpoint: declaration },
    ...(declaration.bodyLimit === undefined ? {} : { bodyLimit: declaration.bodyLimit }),
    ...(preHandler ? { preHandler } : {}),
    handler: async (request, reply) => {
      const parsed = {
        params: params ? parseInput(params, request.params) : undefined,
        // a part the route reads itself is given as it came
        query: query && (readsOwn(declaration, 'query') ? request.query : parseInput(query, request.query)),
        body: body && !readsOwn(declaration, 'body') ? parseInput(body, request.body) : request.body,
      } as Parsed<E>; // each part parsed by the declared schema of the same part, which is what Parsed<E> says
      const answer = await handler({ ...parsed, request, reply });
      // a reply is thenable: returning it is how an async handler tells Fastify it has answered
      if (answer === SENT) return reply;
      return reply.status(declaration.ok.status).send(answer);
    },
  });
}
