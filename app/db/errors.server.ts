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

/**
 * The refusal a statement raised with `vitrine_refuse` (SQLSTATE VR001, migration 0040): its reason
 * and detail. A statement that writes several things raises one to undo all of them at once.
 */
export function raisedRefusal(error: unknown): { reason: string; detail: string } | null {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, message, detail } = cause as {
      code?: unknown;
      message?: unknown;
      detail?: unknown;
    };
    if (code === 'VR001' && typeof message === 'string') {
      return { reason: message, detail: typeof detail === 'string' ? detail : '' };
    }
  }
  return null;
}
