import { createAuthIdentityStep, DEFAULT_SCRYPT, EMAILPASS, hashNewPassword } from "@kasse/modules/auth";
import type { FlowContext } from "./definitions";

/** The emailpass hash of a new account's password (8 characters or more), at the process's scrypt cost (`scryptLogN`, default 15). */
export const hashAccountPassword = (password: string, scryptLogN: number | undefined): Promise<string> =>
  hashNewPassword(password, { ...DEFAULT_SCRYPT, logN: scryptLogN ?? DEFAULT_SCRYPT.logN });

/** Runs the step creating the emailpass identity of `email` with the password's hash (a secret field of the step). */
export const createEmailpassIdentity = (
  ctx: FlowContext,
  email: string,
  passwordHash: string | null,
): Promise<{ id: string }> =>
  ctx.run(createAuthIdentityStep, {
    provider: EMAILPASS,
    entity_id: email,
    user_metadata: null,
    provider_metadata: { password: passwordHash },
  });
