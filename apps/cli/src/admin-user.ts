import { randomBytes } from "node:crypto";
import type { Config, Infrastructure } from "@kasse/runtime";
import { createUserAccount } from "@kasse/flows";
import { createModules } from "@kasse/modules";

/** The login of an admin created by {@link ensureFirstAdmin}; `password` is set only when it was generated. */
export interface FirstAdmin {
  email: string;
  generatedPassword?: string;
}

const DEFAULT_EMAIL = "admin@kasse.local";

/**
 * On a store with no user yet (the first embedded start), creates an admin with an emailpass
 * login: `KASSE_ADMIN_EMAIL` / `KASSE_ADMIN_PASSWORD`, or a default email and a generated
 * password that the caller prints once (only its hash is stored). Returns null when users exist.
 */
export async function ensureFirstAdmin(
  config: Config,
  infra: Required<Pick<Infrastructure, "database" | "engine">>,
): Promise<FirstAdmin | null> {
  if (await createModules().user.any()) return null;
  const email = config.env.KASSE_ADMIN_EMAIL ?? DEFAULT_EMAIL;
  const given = config.env.KASSE_ADMIN_PASSWORD;
  const password = given ?? randomBytes(12).toString("base64url");
  await createUserAccount(infra.engine, { email, password }, { scryptLogN: config.scryptLogN });
  return given ? { email } : { email, generatedPassword: password };
}
