import { totpCode, totpStep } from "../totp";

/** RFC 4648 base32 (a TOTP secret as setup answers it) back to bytes. */
function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * What an authenticator app set up with `secret` (base32, as `POST /auth/mfa/factors` answers it)
 * shows `offset` time steps from now; the server accepts one step either side of its own.
 * @example
 * await t.store.post(`/auth/mfa/factors/${id}/verify`, { code: authenticatorCode(setup.secret) }, headers);
 */
export const authenticatorCode = (secret: string, offset = 0): string =>
  totpCode(base32Decode(secret), totpStep() + offset);
