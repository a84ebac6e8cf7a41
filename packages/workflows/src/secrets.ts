import { KasseError, REDACTED, scrubValue } from "@kasse/core";

/**
 * A dot path to a field of `T` (`"password_hash"`, `"provider_metadata.password"`); `*` stands
 * for every element of an array or every key of a record. A path to an object marks all of it.
 */
export type SecretPath<T, Depth extends unknown[] = []> = 0 extends 1 & T
  ? string
  : Depth["length"] extends 5
    ? string
    : T extends readonly (infer E)[]
      ? "*" | `*.${SecretPath<NonNullable<E>, [...Depth, 1]>}`
      : T extends object
        ? { [K in keyof T & string]: K | `${K}.${SecretPath<NonNullable<T[K]>, [...Depth, 1]>}` }[keyof T & string]
        : never;

/** A JSON value with the fields at `paths` replaced by {@link REDACTED} (a copy; `value` is not changed). Absent and null fields stay as they are. */
function redactPaths(value: unknown, paths: readonly string[]): unknown {
  let out = value;
  for (const path of paths) out = redactAt(out, path.split("."));
  return out;
}

function redactAt(value: unknown, keys: string[]): unknown {
  if (keys.length === 0) return value === null || value === undefined ? value : REDACTED;
  if (value === null || typeof value !== "object") return value;
  const [key, ...rest] = keys as [string, ...string[]];
  if (Array.isArray(value)) return key === "*" ? value.map((item) => redactAt(item, rest)) : value;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...record };
  for (const k of key === "*" ? Object.keys(record) : Object.hasOwn(record, key) ? [key] : [])
    copy[k] = redactAt(record[k], rest);
  return copy;
}

/** Adds to `into` every string inside the fields of `value` at `paths` (the values to keep out of everything journaled). */
export function collectSecrets(value: unknown, paths: readonly string[], into: Set<string>): void {
  for (const path of paths) collectAt(value, path.split("."), into);
}

function collectAt(value: unknown, keys: string[], into: Set<string>): void {
  if (value === null || value === undefined) return;
  if (keys.length === 0) return collectLeaves(value, into);
  if (typeof value !== "object") return;
  const [key, ...rest] = keys as [string, ...string[]];
  const record = value as Record<string, unknown>;
  const children = key === "*" ? Object.values(record) : Object.hasOwn(record, key) ? [record[key]] : [];
  for (const child of children) collectAt(child, rest, into);
}

function collectLeaves(value: unknown, into: Set<string>): void {
  if (typeof value === "string" && value !== "" && value !== REDACTED) into.add(value);
  else if (value !== null && typeof value === "object")
    for (const child of Object.values(value)) collectLeaves(child, into);
}

/**
 * The copy of a JSON value the journal stores: the fields at `paths` redacted, and any other copy
 * of a secret in `secrets` (which gains the values at `paths`) too.
 */
export function journalCopy(value: unknown, paths: readonly string[], secrets: Set<string> = new Set()): unknown {
  collectSecrets(value, paths, secrets);
  return scrubValue(redactPaths(value, paths), secrets);
}

/** Whether a JSON value holds a redaction anywhere (a secret the journal did not keep). */
export function containsRedacted(value: unknown): boolean {
  if (typeof value === "string") return value.includes(REDACTED);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsRedacted);
  return false;
}

/**
 * A resumed execution reached a step whose input holds a redaction: the secret it needs lived
 * only in the memory of the process that started the execution. Not retryable (it cannot come
 * back), so the saga compensates; running the operation again is the way forward.
 */
export class SecretUnavailableError extends KasseError {
  constructor(message: string) {
    super("unexpected_state", message, { retryable: false });
    this.name = "SecretUnavailableError";
  }
}
