/** The PostgreSQL SQLSTATE of an error from either driver (drizzle wraps driver errors in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a PostgreSQL error names, when it names one. */
export function pgConstraint(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const e = current as { constraint?: unknown; constraint_name?: unknown };
    const name = e.constraint ?? e.constraint_name;
    if (typeof name === "string") return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique constraint was violated (23505), optionally a specific one. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean =>
  pgErrorCode(error) === "23505" && (constraint === undefined || pgConstraint(error) === constraint);

/** A foreign key was violated (23503). */
export const isForeignKeyViolation = (error: unknown): boolean => pgErrorCode(error) === "23503";
