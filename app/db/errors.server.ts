/**
 * Whether a database error (or any error it wraps: Drizzle wraps the driver's) carries this
 * SQLSTATE code, on PGlite and PostgreSQL alike.
 */
export function hasSqlState(error: unknown, code: string, constraint?: string): boolean {
  return (
    databaseCause(
      error,
      code,
      (cause) => constraint === undefined || cause.constraint === constraint,
    ) !== undefined
  );
}

/** The first error in the chain (Drizzle wraps the driver's) with this SQLSTATE `code`. */
function databaseCause(
  error: unknown,
  code: string,
  matches: (cause: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> | undefined {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const fields = cause as Record<string, unknown>;
    if (fields.code === code && matches(fields)) return fields;
  }
  return undefined;
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
  const raised = databaseCause(error, 'VR001', (cause) => typeof cause.message === 'string');
  if (!raised) return null;
  return {
    reason: raised.message as string,
    detail: typeof raised.detail === 'string' ? raised.detail : '',
  };
}
