import { KasseError } from "./errors";

/** What is stored, logged or thrown in place of a secret value (and of any copy of it). */
export const REDACTED = "[redacted secret]";

/**
 * Secret strings shorter than this are recognized only as whole values, not inside longer text:
 * replacing a two-letter string everywhere would garble the journal and the error messages.
 */
const MIN_EMBEDDED = 4;

/** `text` with every known secret replaced by {@link REDACTED} (also in its JSON-escaped form, as a driver's error quotes parameters). */
export function scrubText(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (out === secret) return REDACTED;
    if (secret.length < MIN_EMBEDDED) continue;
    out = out.split(secret).join(REDACTED);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

/** A JSON value with every known secret replaced in its strings (numbers and keys stay: secrets are strings). */
export function scrubValue<T>(value: T, secrets: ReadonlySet<string>): T {
  if (secrets.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrubText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, walk(child)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * The error as it may be journaled, logged and thrown: message and details without any known
 * secret. With secrets known, the cause is dropped too (a driver's error carries the query's
 * parameters, and loggers print causes), keeping type, name, retryability, message and details.
 */
export function scrubError(error: KasseError, secrets: ReadonlySet<string>): KasseError {
  if (secrets.size === 0) return error;
  const message = scrubText(error.message, secrets);
  const details = error.details === undefined ? undefined : scrubValue(error.details, secrets);
  if (
    error.cause === undefined &&
    message === error.message &&
    JSON.stringify(details) === JSON.stringify(error.details)
  )
    return error;
  const clean = new KasseError(error.type, message, { details, retryable: error.retryable });
  clean.name = error.name;
  return clean;
}
