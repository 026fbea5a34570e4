// Error kinds with their Portuguese messages, mapped to HTTP in one handler (see app.ts).
import type { z } from '@novus/domain/zod';
import { UUID } from '@novus/domain/ids';

export interface FieldError {
  msg: string;
}

export class AppError extends Error {
  readonly status: number;
  readonly errors: FieldError[] | undefined;

  constructor(status: number, message: string, errors?: FieldError[]) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

export const badRequest = (message: string, errors: FieldError[] = [{ msg: message }]) =>
  new AppError(400, message, errors);
export const unauthorized = (message = 'Sessão expirada ou inexistente. Faça login novamente.') =>
  new AppError(401, message);
export const forbidden = (message = 'Usuario nao tem permissao para esse recurso') =>
  new AppError(403, message);
export const notFound = (message = 'Recurso não encontrado.') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message, [{ msg: message }]);
export const tooLarge = (message: string) => new AppError(413, message);
export const unsupportedMedia = (message: string) => new AppError(415, message);
export const tooManyRequests = (message: string) => new AppError(429, message);
/** The database is gone for a moment (restart, failover, network): the same request may succeed soon. */
export const databaseUnavailable = () =>
  new AppError(503, 'Banco de dados indisponível. Tente novamente em instantes.');

/** The disk is full (the photo store's or the database's): nothing was stored, and the device keeps what it sent. */
export const storageFull = () =>
  new AppError(507, 'Sem espaço no servidor para gravar. Nada foi gravado: tente novamente mais tarde.');
/** A write or sync failed (an I/O error, a read-only disk): nothing was acknowledged, the same request may succeed later. */
export const storageFailed = () =>
  new AppError(
    503,
    'O servidor não conseguiu gravar no disco. Nada foi gravado: tente novamente em instantes.',
  );

/** Error codes of the file system (Node's errno names) and PostgreSQL's disk_full, as the answer they call for. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
const FAILED_CODES = new Set(['EIO', 'EROFS', 'EMFILE', 'ENFILE', 'EFBIG']);

/** The 507 or 503 a failed write calls for, or undefined when the error is something else. */
export function storageFailure(error: unknown): AppError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (FULL_CODES.has(code)) return storageFull();
  if (FAILED_CODES.has(code)) return storageFailed();
  return undefined;
}

export function validationError(error: z.ZodError): AppError {
  const errors = error.issues.map((issue) => ({ msg: issue.message }));
  return badRequest(errors.map((e) => e.msg).join(' | ') || 'Dados inválidos.', errors);
}

/** Parses untrusted input with a domain schema, throwing a 400 with one `{ msg }` per problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const problem = inspectInput(input);
  if (problem === 'nul') throw badRequest('A requisição contém caracteres inválidos.');
  if (problem === 'deep') throw badRequest('A requisição tem níveis de aninhamento demais.');
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Ids are UUIDs; anything else is a malformed request, never a database error. */
export function parseId(value: unknown, what = 'Identificador'): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw badRequest(`${what} inválido.`);
  return value.toLowerCase();
}

/** No form or record of Novus nests this deep; a deeper value is an attack on the stack, not data. */
export const MAX_INPUT_DEPTH = 32;

/**
 * 'nul' when a string or key holds NUL (PostgreSQL text cannot: refuse it as bad input instead of failing in the
 * database), 'deep' when the value nests past MAX_INPUT_DEPTH. Walked with a stack of its own, so a hostile
 * 100,000-level array cannot overflow the call stack.
 */
export function inspectInput(input: unknown): 'nul' | 'deep' | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: input, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'nul';
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_INPUT_DEPTH) return 'deep';
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return 'nul';
        pending.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return undefined;
}
