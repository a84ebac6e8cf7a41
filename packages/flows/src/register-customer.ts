import { errors, isKasseError, normalizeEmail } from "@kasse/core";
import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import { linkActorStep, purgeIdentitiesStep, registrantStep } from "@kasse/modules/auth";
import { createCustomerStep, type CustomerCreate } from "@kasse/modules/customer";
import { createEmailpassIdentity, hashAccountPassword } from "./emailpass-account";
import { endUnprovenClaims } from "./email-takeover";

/** The workflow's input: a password arrives hashed, and the hash is a secret field (journaled as a redaction). */
export interface RegisterCustomerWorkflowInput {
  customer: CustomerCreate;
  /** The identity of a registration token (Medusa's form); absent in the one-call form. */
  auth_identity_id: string | null;
  /** The one-call form's password, hashed. */
  password_hash: string | null;
}

/**
 * A registered customer (`has_account` true) linked to its auth identity, which is created here
 * in the one-call form. With a registration token, the customer's email must be the identity's
 * own and the identity must have no customer yet; an identity that proved the address (an OAuth
 * provider vouched for it, or a password reset) first ends the unproven claims on it (docs/security.md
 * "Email ownership"). Any failure (email taken, identity already linked) undoes the rest.
 */
export const registerCustomerWorkflow = workflow(
  "register-customer",
  async (input: RegisterCustomerWorkflowInput, ctx) => {
    const email = normalizeEmail(input.customer.email);
    let identityId = input.auth_identity_id;
    let ended: string[] = [];
    if (!identityId) identityId = (await createEmailpassIdentity(ctx, email, input.password_hash)).id;
    else if ((await ctx.run(registrantStep, { auth_identity_id: identityId, email })).verified)
      ended = await endUnprovenClaims(ctx, { email, auth_identity_id: identityId });
    const customer = await ctx.run(createCustomerStep, { customer: input.customer, has_account: true });
    await ctx.run(linkActorStep, { auth_identity_id: identityId, actor_type: "customer", actor_id: customer.id });
    // Last: deleting an identity cannot be undone.
    if (ended.length) await ctx.run(purgeIdentitiesStep, { auth_identity_ids: ended });
    return { customer_id: customer.id, auth_identity_id: identityId };
  },
  { secret: { input: ["password_hash"] } },
);

/** Registration, in either form of docs/CONTRACT.md: with a registration token's identity, or with a password. */
export type RegisterCustomerInput = { customer: CustomerCreate } & (
  { auth_identity_id: string; password?: undefined } | { auth_identity_id?: undefined; password: string }
);

/**
 * Registers a customer through {@link registerCustomerWorkflow}. An email that already has an
 * identity (one-call form) or a registered customer is `conflict`.
 * @example
 * const { customer_id } = await registerCustomer(engine, { customer: { email }, password }, { scryptLogN: 15 });
 */
export async function registerCustomer(
  engine: Pick<Engine, "execute">,
  input: RegisterCustomerInput,
  options: { scryptLogN?: number } = {},
): Promise<{ customer_id: string; auth_identity_id: string }> {
  const password_hash =
    input.password === undefined ? null : await hashAccountPassword(input.password, options.scryptLogN);
  try {
    return await engine.execute(registerCustomerWorkflow, {
      customer: input.customer,
      auth_identity_id: input.auth_identity_id ?? null,
      password_hash,
    });
  } catch (error) {
    if (isKasseError(error) && error.type === "conflict")
      throw errors.conflict(
        error.message.startsWith("An identity")
          ? `An account with email ${normalizeEmail(input.customer.email)} already exists`
          : error.message,
      );
    throw error;
  }
}
