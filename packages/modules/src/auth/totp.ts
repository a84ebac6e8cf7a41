import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** RFC 6238 as authenticator apps run it: HMAC-SHA-1, 30-second steps, 6 digits. */
const TOTP = { period: 30, digits: 6, algorithm: "SHA1" } as const;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding: the form authenticator apps take a secret in. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A new TOTP secret: 160 random bits (RFC 4226's recommended length for HMAC-SHA-1). */
export const newTotpSecret = (): Buffer => randomBytes(20);

/** The time step `at` falls in. */
export const totpStep = (at: number = Date.now()): number => Math.floor(at / 1000 / TOTP.period);

/** The code of one time step (RFC 4226 HOTP with the step as counter, dynamic truncation). */
export function totpCode(secret: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP.digits).padStart(TOTP.digits, "0");
}

/**
 * The step whose code `code` is, among the current step and one either side (a phone's clock and
 * the time to type the code), or null. Every candidate is compared in constant time.
 */
export function matchTotp(secret: Uint8Array, code: string, at: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const given = Buffer.from(code);
  const now = totpStep(at);
  let matched: number | null = null;
  for (const step of [now - 1, now, now + 1]) {
    if (timingSafeEqual(Buffer.from(totpCode(secret, step)), given) && matched === null) matched = step;
  }
  return matched;
}

/** The `otpauth://` URI an authenticator app scans (Google Authenticator's key URI format). */
export function otpauthUrl(secret: Uint8Array, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: TOTP.algorithm,
    digits: String(TOTP.digits),
    period: String(TOTP.period),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
