import { errors, isEmailAddress, normalizeEmail } from "@kasse/core";
import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import { linkActorStep } from "@kasse/modules/auth";
import { createUserStep } from "@kasse/modules/user";
import { createEmailpassIdentity, hashAccountPassword } from "./emailpass-account";

/** The workflow's input: the password arrives hashed, and the hash is a secret field (journaled as a redaction). */
export interface CreateUserAccountWorkflowInput {
  email: string;
  first_name: string | null;
  last_name: string | null;
  password_hash: string;
}

/**
 * An admin user and its emailpass identity, linked (`app_metadata.user_id`). A taken email fails
 * with `conflict` and undoes whatever was done. The hash is stored only in the identity: resumed
 * after a crash before the identity step ran, the execution fails (`SecretUnavailableError`).
 */
export const createUserAccountWorkflow = workflow(
  "create-user-account",
  async (input: CreateUserAccountWorkflowInput, ctx) => {
    const identity = await createEmailpassIdentity(ctx, input.email, input.password_hash);
    const user = await ctx.run(createUserStep, {
      email: input.email,
      first_name: input.first_name,
      last_name: input.last_name,
    });
    await ctx.run(linkActorStep, { auth_identity_id: identity.id, actor_type: "user", actor_id: user.id });
    return { user_id: user.id, auth_identity_id: identity.id };
  },
  { secret: { input: ["password_hash"] } },
);

export interface CreateUserAccountInput {
  email: string;
  password: string;
  first_name?: string | null;
  last_name?: string | null;
}

/**
 * Creates an admin who can sign in at `POST /auth/user/emailpass` (used by `kasse user create`
 * and the first embedded start). Bad input is `invalid_data`; an email already registered is `conflict`.
 * @example
 * const { user_id } = await createUserAccount(engine, { email: "admin@example.com", password }, { scryptLogN: config.scryptLogN });
 */
export async function createUserAccount(
  engine: Pick<Engine, "execute">,
  input: CreateUserAccountInput,
  options: { scryptLogN?: number } = {},
): Promise<{ user_id: string; auth_identity_id: string }> {
  const email = normalizeEmail(input.email ?? "");
  if (!isEmailAddress(email)) throw errors.invalidData(`'${input.email}' is not a valid email`);
  if (typeof input.password !== "string" || input.password.length === 0)
    throw errors.invalidData("A password is required");
  const password_hash = await hashAccountPassword(input.password, options.scryptLogN);
  return engine.execute(createUserAccountWorkflow, {
    email,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    password_hash,
  });
}
