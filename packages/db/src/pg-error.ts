import { SetupError } from "./setup-error";

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

/**
 * Where a PostgreSQL URL points, as postgres.js reads it (its defaults: PGHOST, PGPORT, PGUSER,
 * PGDATABASE, the OS user). Throws a TypeError on a string that is not a URL.
 */
export function postgresTarget(url: string): { host: string; port: string; database: string; role: string } {
  const parsed = new URL(url);
  const role = decodeURIComponent(parsed.username) || process.env.PGUSER || process.env.USER || "postgres";
  return {
    host: parsed.searchParams.get("host") ?? (parsed.hostname || process.env.PGHOST || "localhost"),
    port: parsed.port || process.env.PGPORT || "5432",
    database: decodeURIComponent(parsed.pathname.slice(1)) || process.env.PGDATABASE || role,
    role,
  };
}

/** The errno-style code (ECONNREFUSED, ENOTFOUND…) of a driver's connection error, also inside an AggregateError. */
function systemCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, errors } = current as { code?: unknown; errors?: unknown };
    if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
    if (Array.isArray(errors) && errors.length) return systemCode(errors[0]);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Why PostgreSQL at `url` could not be used, in one line naming the host, port, database and role,
 * the cause and the fix (`createdb`, `createuser`, …). Never the password. The one place a
 * connection failure is described, for every command and process that opens the database.
 * @example
 * connectionFailure(error, "postgres://kasse@db:5432/shop").message
 * // Cannot use PostgreSQL at db:5432 (database "shop", role "kasse"): the database does not exist; create it: `createdb -h db -p 5432 -U kasse shop`, or fix DATABASE_URL.
 */
export function connectionFailure(error: unknown, url: string, connectTimeoutS: number): SetupError {
  const { host, port, database, role } = postgresTarget(url);
  const where = `Cannot use PostgreSQL at ${host}:${port} (database "${database}", role "${role}")`;
  const say = (problem: string) => new SetupError(`${where}: ${problem}`);
  const message = error instanceof Error ? error.message : String(error);
  switch (pgErrorCode(error) ?? systemCode(error)) {
    case "ECONNREFUSED":
      return say("connection refused; start PostgreSQL there, or fix the host and port in DATABASE_URL.");
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return say(`the host "${host}" is not known; fix the host in DATABASE_URL.`);
    case "CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return say(
        `no answer within ${connectTimeoutS} s; check the host and port in DATABASE_URL and that the network lets you reach it.`,
      );
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return say("the host cannot be reached from here; check the host in DATABASE_URL and the network.");
    case "3D000":
      return say(
        `the database does not exist; create it: \`createdb -h ${host} -p ${port} -U ${role} ${database}\`, or fix DATABASE_URL.`,
      );
    case "28000":
      return /role .* does not exist/.test(message)
        ? say(
            `the role does not exist; create it as a superuser: \`createuser -h ${host} -p ${port} -U postgres --createdb ${role}\`, or fix DATABASE_URL.`,
          )
        : say(`the server refuses this role here (${message}); allow it in pg_hba.conf, or fix DATABASE_URL.`);
    case "28P01":
      return say("the password was refused; fix the password in DATABASE_URL.");
    case "57P03":
      return say("the server is starting up or shutting down; start again in a moment.");
    case "53300":
      return say(
        "the server has no free connection (too many clients); raise its max_connections or stop other clients.",
      );
    default:
      return say(`${message}; check DATABASE_URL.`);
  }
}
