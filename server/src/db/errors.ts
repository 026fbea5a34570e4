// Recognising constraint violations the same way on PostgreSQL and PGlite (both carry SQLSTATE in `code`).
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
