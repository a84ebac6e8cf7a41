import { seal, unseal } from "@kasse/core";

/** Marks a sealed value in `data`, so a value written before sealing existed is told apart. */
const SEALED = "sealed:v1:";

/** `data` with the values of `keys` sealed (AES-256-GCM under `key`): what the outbox row holds until delivery. */
export function sealSecretData(
  data: Record<string, unknown>,
  keys: readonly string[],
  key: Buffer,
): Record<string, unknown> {
  const out = { ...data };
  for (const name of keys)
    if (Object.hasOwn(out, name)) out[name] = SEALED + seal(Buffer.from(JSON.stringify(out[name] ?? null)), key);
  return out;
}

/**
 * `data` with its sealed values opened for delivery, or null when one cannot be opened (the
 * server secret changed). A plain value (a row written before sealing) is used as it is.
 */
export function openSecretData(
  data: Record<string, unknown>,
  keys: readonly string[],
  key: Buffer,
): Record<string, unknown> | null {
  const out = { ...data };
  for (const name of keys) {
    const value = out[name];
    if (typeof value !== "string" || !value.startsWith(SEALED)) continue;
    const plain = unseal(value.slice(SEALED.length), key);
    if (!plain) return null;
    out[name] = JSON.parse(plain.toString("utf8")) as unknown;
  }
  return out;
}

/** The strings among the secret values of `data` (opened), to keep them out of error messages and logs. */
export function secretStrings(data: Record<string, unknown>, keys: readonly string[]): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string" && value !== "") found.add(value);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const name of keys) walk(data[name]);
  return found;
}
