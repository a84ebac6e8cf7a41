import { createHash } from "node:crypto";

/**
 * The sha256 of a token, hex: what is stored and looked up in its place (API keys, invites,
 * one-time and transfer tokens), so a read of the table gives no usable token.
 */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");
