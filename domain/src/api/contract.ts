// An endpoint is one declaration (DESIGN.md 'Endpoints as declarations'), as a flow is: its method and path, who may
// call it, what it reads (params, query, body) and what it answers. The server registers its route from it
// (server/src/contract.ts: input parsed with these schemas, roles checked, the handler's return typed by the
// answer), /api/docs is generated from it, and the web client calls it with `api.call(endpoint, input)`, which
// parses the answer with the same schema. Nothing else describes an endpoint.
import { UUID } from '../ids.ts';
import type { Role } from '../roles.ts';
import { z } from '../zod.ts';

export { pathOf } from './path.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call: one of these roles; 'sessão', any signed-in user; 'público', anyone. */
export type Allow = readonly Role[] | 'sessão' | 'público';

export interface Endpoint {
  method: Method;
  /** Fastify's form: '/api/cliente/:id'. */
  path: string;
  /** The group in the documentation ('clientes'). */
  tag: string;
  /** One line, in Portuguese, for the documentation. */
  summary: string;
  description?: string;
  allow: Allow;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Parsed by the route's helper unless `consumes` says multipart (the route reads its parts itself). */
  body?: z.ZodType;
  /** Content types of the body, when not only JSON. */
  consumes?: readonly string[];
  /**
   * Parts the route parses itself, in its own order and with its own messages (a file's query depends on the
   * file; the project form's files are checked before its fields): their schemas here only document them.
   */
  readByRoute?: readonly ('query' | 'body')[];
  /** The largest body accepted, in bytes, when smaller than the server's default (413 past it). */
  bodyLimit?: number;
  ok: {
    status: 200 | 201 | 204;
    description: string;
    /** The JSON answer; none for a 204 or a file (`produces`). */
    answer?: z.ZodType;
    /** The media type of an answer that is not JSON (a file, a page, a stream). */
    produces?: string;
  };
  /** Error statuses besides the generic ones (400; 401/403 when roles are required; 404 with params). */
  errors?: readonly number[];
  /** An error status whose body is not the error shape (the health check's 503 says which part fails). */
  errorAnswers?: Readonly<Record<number, { description: string; answer: z.ZodType }>>;
}

/** Declares an endpoint, keeping its literal types (the schemas' types reach the server and the client). */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a route's handler is given, parsed. */
export interface Parsed<E extends Endpoint> {
  params: Out<E['params']>;
  query: ReadByRoute<E, 'query'> extends true ? unknown : Out<E['query']>;
  body: E['consumes'] extends readonly ['multipart/form-data', ...string[]]
    ? unknown
    : ReadByRoute<E, 'body'> extends true
      ? unknown
      : Out<E['body']>;
}

type ReadByRoute<
  E extends Endpoint,
  Part extends 'query' | 'body',
> = E['readByRoute'] extends readonly (infer P)[] ? (Part extends P ? true : false) : false;

/** What the endpoint answers on success, as the client gets it (undefined for a 204 or a file). */
export type AnswerOf<E extends Endpoint> = E['ok'] extends { answer: infer A } ? Out<A> : undefined;

/** What the server's handler returns: the answer before its schema's output transforms. */
export type AnswerInputOf<E extends Endpoint> = E['ok'] extends { answer: infer A } ? In<A> : undefined;

/** What a caller sends: only the parts the endpoint declares. */
export type CallInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: In<E['params']> }
  : object) &
  (E['query'] extends z.ZodType ? { query?: In<E['query']> } : object) &
  (E['body'] extends z.ZodType ? { body: In<E['body']> | URLSearchParams | FormData } : object);

/** A UUID in the path, refused with the same words as before the declarations ('Identificador de cliente inválido.'). */
export function uuidParam(what: string) {
  return z
    .string({ error: `${what} inválido.` })
    .regex(UUID, `${what} inválido.`)
    .transform((value) => value.toLowerCase());
}

/** Shared answer parts. */
export const uuid = z.uuid();

/** The `{ _id }` of what a DELETE removed. */
export const deletedAnswer = z.object({ _id: uuid }).describe('O identificador do que foi excluído.');

/** A body the back office's forms post as JSON or form-encoded (SPEC.md 7). */
export const FORM = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** What a create or an update reads (its body and how it comes) and the errors it adds (409: a name taken). */
type Write = Pick<Endpoint, 'body' | 'consumes' | 'readByRoute' | 'bodyLimit' | 'errors'>;

/** What sets apart a resource the back office keeps (clients, users, projects): its list, get, create, update, delete. */
export interface Resource {
  /** The list, and a new one posted, here; one of them at `${path}/:id`. */
  path: string;
  /**
   * Its name, singular and plural (a masculine noun: 'Um cliente.', 'Os clientes.'); the plural is its tag in the
   * documentation, the singular names its id ('Identificador de cliente inválido.').
   */
  nome: readonly [string, string];
  /** Who reads; only the administrador writes. */
  readers: Allow;
  /** An item of the list; one as get, create and update answer it. */
  item: z.ZodType;
  one: z.ZodType;
  create: Write;
  update: Write;
  /** The summaries that say more than the usual words. */
  summaries?: { list?: string; get?: string; create?: string };
}

/**
 * A resource's five endpoints, alike but for what `Resource` says. Each refuses a delete that would lose something
 * (409: a client in use, the last administrador, a project with records).
 */
export function resourceEndpoints<const R extends Resource>(resource: R) {
  const { path, summaries } = resource;
  const [singular, plural] = resource.nome;
  // typed as R's own parts, which reach the server's handlers and the client (a property read from a type parameter
  // has its constraint's type: z.ZodType)
  const parts: Pick<R, 'readers' | 'item' | 'one' | 'create' | 'update'> = resource;
  const { readers, item, one } = parts;
  const all = { path, tag: plural };
  const byId = {
    path: `${path}/:id`,
    tag: plural,
    params: z.object({ id: uuidParam(`Identificador de ${singular}`) }),
  };
  const admin = ['administrador'] as const;
  return {
    list: endpoint({
      method: 'GET',
      ...all,
      summary: summaries?.list ?? `Lista os ${plural}.`,
      allow: readers,
      ok: { status: 200, description: `Os ${plural}.`, answer: z.array(item) },
    }),
    get: endpoint({
      method: 'GET',
      ...byId,
      summary: summaries?.get ?? `Um ${singular}.`,
      allow: readers,
      ok: { status: 200, description: `O ${singular}.`, answer: one },
    }),
    create: endpoint({
      method: 'POST',
      ...all,
      summary: summaries?.create ?? `Cadastra um ${singular}.`,
      allow: admin,
      ...parts.create,
      ok: { status: 201, description: `O ${singular} cadastrado.`, answer: one },
    }),
    update: endpoint({
      method: 'PUT',
      ...byId,
      summary: `Altera um ${singular}.`,
      allow: admin,
      ...parts.update,
      ok: { status: 200, description: `O ${singular} alterado.`, answer: one },
    }),
    delete: endpoint({
      method: 'DELETE',
      ...byId,
      summary: `Exclui um ${singular}.`,
      allow: admin,
      ok: { status: 200, description: 'Excluído.', answer: deletedAnswer },
      errors: [409],
    }),
  };
}
