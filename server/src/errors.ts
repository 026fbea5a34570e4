// Error kinds with their Portuguese messages, mapped to HTTP in one handler (see app.ts).
import type { z } from '@novus/domain/zod';

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

export function validationError(error: z.ZodError): AppError {
  const errors = error.issues.map((issue) => ({ msg: issue.message }));
  return badRequest(errors.map((e) => e.msg).join(' | ') || 'Dados inválidos.', errors);
}

/** Parses untrusted input with a domain schema, throwing a 400 with one `{ msg }` per problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  if (containsNul(input)) throw badRequest('A requisição contém caracteres inválidos.');
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else is a malformed request, never a database error. */
export function parseId(value: unknown, what = 'Identificador'): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw badRequest(`${what} inválido.`);
  return value.toLowerCase();
}

/** PostgreSQL text cannot hold NUL: refuse it as bad input instead of failing in the database. */
function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
}
