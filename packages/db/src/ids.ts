import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32

/**
 * A prefixed, time-ordered, unguessable id: 10 characters of millisecond time then
 * 20 random characters (100 bits), e.g. `prod_01JD3Z8Q7X4M2N9K6P5R3T1V0W8Y6A4C`.
 */
export function generateId(prefix: string): string {
  let time = Date.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = ALPHABET[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const bytes = randomBytes(20);
  let tail = "";
  for (const byte of bytes) tail += ALPHABET[byte & 31];
  return `${prefix}_${head}${tail}`;
}
