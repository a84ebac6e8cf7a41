import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * A 256-bit key for one purpose, derived (HKDF-SHA256) from a server secret: each use of
 * `JWT_SECRET` gets its own key, so a key found in one place opens nothing else.
 * @example
 * const key = deriveKey(config.jwt.secret, "kasse-notification-data");
 */
export function deriveKey(secret: Uint8Array | string, purpose: string, salt: Uint8Array | string = ""): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, salt, purpose, 32));
}

/**
 * Encrypts and authenticates `plain` (AES-256-GCM, random IV) as `iv.tag.ciphertext` in base64url,
 * for secrets that must be stored and read back (a stored response, a token waiting for delivery).
 */
export function seal(plain: Uint8Array, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((part) => part.toString("base64url")).join(".");
}

/** What {@link seal} sealed, or null when it cannot be authenticated (another key, or tampered with). */
export function unseal(stored: string, key: Buffer): Buffer | null {
  const [iv, tag, data] = stored.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !data) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]);
  } catch {
    return null;
  }
}
