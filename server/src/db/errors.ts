// Recognising constraint violations and an unreachable database the same way on PostgreSQL and PGlite (both carry
// SQLSTATE in `code`).
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === '23503';
}

function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** Node's socket errors when the database cannot be reached or drops the connection. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a database that is going away or not yet back: class 08 (connection exception), 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, recovering), 53300 too many
 * connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres says these in plain text, without a code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection timeout',
  'Cannot use a pool after calling end on the pool',
];

/**
 * True when the error says the database is unreachable (restart, failover, network) rather than that the query
 * was wrong: the request may succeed again in a moment, so it is a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const code = sqlState(error);
  if (code && (SOCKET_ERRORS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof Error && UNAVAILABLE_MESSAGES.some((text) => error.message.startsWith(text)))
    return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError of each attempt.
  if (error instanceof AggregateError)
    return error.errors.some((item) => isDatabaseUnavailable(item, depth + 1));
  return 'cause' in error && isDatabaseUnavailable(error.cause, depth + 1);
}
