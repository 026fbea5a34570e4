// The one place the app talks HTTP: same-origin JSON calls with the auth cookie. An endpoint is called by its
// declaration (domain/src/api): `api.call(endpoint, { params, query, body })` builds the request and parses the
// answer with the declared schema. On the first page's path (the login): zod comes only with the declarations the
// callers pass (the path builder has none).
import type { z } from 'zod';
import type { AnswerOf, CallInput, Endpoint } from '@novus/domain/api/contract';
import { pathOf } from '@novus/domain/api/path';

/** The error shape of every API answer (server/src/errors.ts). */
export interface ErrorBody {
  message?: string;
  errors?: { msg: string }[];
}

/** A non-OK answer, or no answer at all (status 0: offline or the server is down). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody, message?: string) {
    super(message ?? body.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's own words, if it sent any. */
  get serverMessage(): string | undefined {
    return this.body.message;
  }
}

export interface ApiClientOptions {
  /** Called on any 401 before the error is thrown (the back office sends the user to log in). */
  onUnauthorized?: () => void;
  fetchFn?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export class ApiClient {
  private readonly onUnauthorized: (() => void) | undefined;
  private readonly fetchFn: typeof fetch;

  constructor(options: ApiClientOptions = {}) {
    this.onUnauthorized = options.onUnauthorized;
    this.fetchFn = options.fetchFn ?? ((input, init) => fetch(input, init));
  }

  /** Sends a request and validates the JSON answer with `schema`. */
  async json<T>(method: Method, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const response = await this.send(method, path, body);
    const data: unknown = await response.json();
    return schema.parse(data);
  }

  /** GETs JSON left unparsed, for a screen that loads no zod (the login page): the caller checks its shape. */
  async read(path: string): Promise<unknown> {
    return (await this.send('GET', path)).json();
  }

  /** Calls a declared endpoint and parses its answer with the declared schema (undefined for a 204 or a file). */
  call<E extends Endpoint>(declaration: E, input: CallInput<E>): Promise<AnswerOf<E>>;
  /** Sends a request whose answer body does not matter (204, or 200 on DELETE). */
  call(method: Method, path: string, body?: unknown): Promise<void>;
  async call(target: Endpoint | Method, pathOrInput?: unknown, body?: unknown): Promise<unknown> {
    if (typeof target === 'string') {
      await this.send(target, String(pathOrInput), body);
      return undefined;
    }
    const input = (pathOrInput ?? {}) as {
      params?: Record<string, unknown>;
      query?: unknown;
      body?: unknown;
    };
    const response = await this.send(target.method, urlOf(target, input), input.body);
    const { answer } = target.ok;
    if (answer === undefined) return undefined;
    return answer.parse(await response.json());
  }

  private async send(method: Method, path: string, body?: unknown): Promise<Response> {
    const init: RequestInit = { method, credentials: 'same-origin', ...encode(body) };
    let response: Response;
    try {
      response = await this.fetchFn(path, init);
    } catch (cause) {
      throw new ApiError(0, {}, cause instanceof Error ? cause.message : 'Falha de rede');
    }
    if (response.ok) return response;
    const errorBody = await readErrorBody(response);
    if (response.status === 401) this.onUnauthorized?.();
    throw new ApiError(response.status, errorBody);
  }
}

/** The declared path with its params, and the query's defined values as a query string (also a download's link). */
export function urlOf(
  declaration: Endpoint,
  input: { params?: Record<string, unknown>; query?: unknown },
): string {
  const path = pathOf(declaration, input.params);
  if (typeof input.query !== 'object' || input.query === null) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** JSON by default; a URLSearchParams body goes form-encoded, a FormData one multipart (fetch sets its Content-Type). */
function encode(body: unknown): Pick<RequestInit, 'headers' | 'body'> {
  if (body === undefined) return { headers: { Accept: 'application/json' } };
  if (body instanceof URLSearchParams) return { headers: { Accept: 'application/json' }, body };
  // multipart: fetch sets the Content-Type with its boundary
  if (body instanceof FormData) return { headers: { Accept: 'application/json' }, body };
  return {
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  };
}

async function readErrorBody(response: Response): Promise<ErrorBody> {
  try {
    return errorBody(await response.json());
  } catch {
    return {};
  }
}

/** The known fields of an error answer; anything else in it is dropped. */
export function errorBody(data: unknown): ErrorBody {
  if (typeof data !== 'object' || data === null) return {};
  const { message, errors } = data as Record<string, unknown>;
  const body: ErrorBody = {};
  if (typeof message === 'string') body.message = message;
  if (Array.isArray(errors)) {
    body.errors = errors.flatMap((item: unknown) =>
      typeof item === 'object' && item !== null && typeof (item as { msg?: unknown }).msg === 'string'
        ? [{ msg: (item as { msg: string }).msg }]
        : [],
    );
  }
  return body;
}
