import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { errors, MAX_LENGTH, MIN_PASSWORD_LENGTH } from "@kasse/core";

/** scrypt cost parameters; `N = 2^logN`. */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/** The contract's default cost: logN 15, r 8, p 1. */
export const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 1 };

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  // Node's default maxmem (32 MiB) is exactly 128·N·r at logN 15, r 8: scrypt would refuse it.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a password with scrypt and a fresh random salt. The result carries its own
 * parameters (`scrypt$logN$r$p$salt$hash`), so the cost can change later without breaking old hashes.
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  return ["scrypt", params.logN, params.r, params.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * Hashes a password being set (registration, change, reset, a new account): at least
 * {@link MIN_PASSWORD_LENGTH} characters (counted as the request validator counts them, by code
 * point), else 400 `invalid_data`. The one way a new password is hashed, so every route and the
 * CLI keep the rule; `hashPassword` alone only re-hashes one already accepted.
 */
export async function hashNewPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  if ([...password].length < MIN_PASSWORD_LENGTH)
    throw errors.invalidData(`A password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  if (password.length > MAX_LENGTH.secret) throw errors.invalidData("The password is too long");
  return hashPassword(password, params);
}

/** The parameters a stored hash was made with, or null when the string is not a Kasse scrypt hash. */
export function hashParams(stored: string): ScryptParams | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 20) return null;
  return { logN, r, p };
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = hashParams(stored);
  if (!params) return false;
  const [, , , , saltText, keyText] = stored.split("$") as [string, string, string, string, string, string];
  const expected = Buffer.from(keyText, "base64");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(saltText, "base64"), params);
  return timingSafeEqual(actual, expected);
}
