import { randomBytes } from "node:crypto";
import { errors, normalizeEmail } from "@kasse/core";
import { actorIdOf, EMAILPASS } from "@kasse/modules/auth";
import type { Modules } from "@kasse/modules";

// The first start prints the admin login and the publishable key once; these commands give them
// back after the output scrolled away. A password is stored only as a scrypt hash, so it is
// replaced (reset), never shown.

const PAGE = { limit: 1000, offset: 0 };

/** `kasse credentials`: the admin users' emails and the active publishable keys, as lines to print. */
export async function describeCredentials(m: Modules): Promise<string[]> {
  const [users, keys] = await Promise.all([
    m.user.list({}, PAGE),
    m.apiKey.list({ type: "publishable", revoked: false }, PAGE),
  ]);
  return [
    "Admin users (sign in at /app or POST /auth/user/emailpass):",
    ...(users.items.length ? users.items.map((u) => `  ${u.email}`) : ["  none: create one with kasse user create"]),
    "Publishable API keys (x-publishable-api-key):",
    ...(keys.items.length ? keys.items.map((k) => `  ${k.token}  ${k.title}`) : ["  none: kasse seed creates one"]),
    "Passwords are stored hashed and cannot be shown again; set a new one with",
    "  kasse user reset-password --email <email> [--password <password>]",
  ];
}

/**
 * `kasse user reset-password`: sets the password of the admin user `email` (a generated one when
 * `password` is not given, returned to print once) and ends its sessions. An email with no admin
 * password login is `not_found`; a password under 8 characters `invalid_data`.
 */
export async function resetAdminPassword(
  m: Modules,
  input: { email: string; password?: string },
): Promise<{ email: string; generatedPassword?: string }> {
  const email = normalizeEmail(input.email);
  const user = await m.user.retrieveByEmail(email);
  const identity = user ? await m.auth.findByProvider(EMAILPASS, email) : null;
  if (!user || !identity || actorIdOf(identity, "user") !== user.id)
    throw errors.notFound(`No admin user signs in with the email '${email}' and a password`);
  const password = input.password ?? randomBytes(12).toString("base64url");
  await m.auth.setPassword(identity.id, { email, password });
  return input.password ? { email } : { email, generatedPassword: password };
}
