/**
 * Whether a database error (or any error it wraps: Drizzle wraps the driver's) carries this
 * SQLSTATE code, on PGlite and PostgreSQL alike.
 */
export function hasSqlState(error: unknown, code: string, constraint?: string): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code: found, constraint: named } = cause as { code?: unknown; constraint?: unknown };
    if (found === code && (constraint === undefined || named === constraint)) return true;
  }
  return false;
}

/**
 * A unique index (`constraint`, when named: any otherwise) refused the write (23505): what
 * settles two writers racing for one key.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return hasSqlState(error, '23505', constraint);
}
