import { errors, normalizeEmail } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import { claimEmailChangeStep, linkedActorTypes, takeEmailpassAddressStep } from "@kasse/modules/auth";
import { setCustomerEmailStep } from "@kasse/modules/customer";
import { endUnprovenClaims } from "./email-takeover";
import { sendNotification } from "./send-notification";

/** How long the token mailed to a new address works. */
const EMAIL_CHANGE_TTL_MS = 30 * 60_000;

/** Who changes their email: the signed-in customer and the identity their token names. */
interface EmailChangeCaller {
  customer_id: string;
  auth_identity_id: string;
}

/**
 * Starts a registered customer's email change (`POST /store/customers/me/email`): mails a single-use
 * token to the new address (only a hash is stored; an earlier request's token stops working).
 * Nothing changes until {@link changeCustomerEmail} gets the token back from the signed-in
 * customer. Whether another account holds the address is not looked at here, so the answer says
 * nothing about it. The account's current address is accepted too: confirming it proves it. A
 * sign-in shared with an admin user (its login is the admin's too) is `invalid_data`.
 * @example
 * const { email, expires_at } = await requestCustomerEmailChange(engine, app.modules, { customer_id, auth_identity_id, email: "new@example.com" });
 */
export async function requestCustomerEmailChange(
  engine: Pick<Engine, "execute">,
  m: Modules,
  input: EmailChangeCaller & { email: string },
): Promise<{ email: string; expires_at: string }> {
  const email = normalizeEmail(input.email);
  const identity = await m.auth.retrieve(input.auth_identity_id);
  if (linkedActorTypes(identity).some((type) => type !== "customer"))
    throw errors.invalidData("This sign-in is an admin user's too: its email cannot be changed from the store");
  const { secret, row } = await m.auth.requestEmailChange({ ...input, email, ttlMs: EMAIL_CHANGE_TTL_MS });
  const expires_at = row.expires_at.toISOString();
  await sendNotification(engine, m.notification, {
    to: email,
    channel: "email",
    template: "customer.email_change",
    data: { token: secret, email, expires_at },
    secret_keys: ["token"],
    resource_type: "customer",
  });
  return { email, expires_at };
}

/**
 * A confirmed email change, one saga over the auth and customer modules: the token (of this
 * customer and identity) is used, the unproven claims on the new address end (a squat never
 * blocks its owner), the customer's email changes with a `customer.updated` event, and last the
 * emailpass login moves to the new address, proven. A failure undoes the steps before it, the
 * token's use included; an address a proven or admin sign-in holds is `conflict`.
 */
export const changeCustomerEmailWorkflow = workflow(
  "change-customer-email",
  async (input: EmailChangeCaller & { token: string }, ctx) => {
    const { email } = await ctx.run(claimEmailChangeStep, input);
    const ended = await endUnprovenClaims(ctx, { email, auth_identity_id: input.auth_identity_id });
    const { previous } = await ctx.run(setCustomerEmailStep, { customer_id: input.customer_id, email });
    await ctx.run(takeEmailpassAddressStep, { customer_id: input.customer_id, email, purge_auth_identity_ids: ended });
    return { email, previous_email: previous };
  },
  { secret: { input: ["token"] } },
);

/**
 * Confirms an email change with the token mailed to the new address
 * (`POST /store/customers/me/email/confirm`), through {@link changeCustomerEmailWorkflow}, then
 * tells the previous address where the account went (a failed delivery is recorded, not thrown);
 * the account's own address confirmed is only proven, nothing to tell.
 * @example
 * await changeCustomerEmail(engine, app.modules, { customer_id, auth_identity_id, token });
 */
export async function changeCustomerEmail(
  engine: Pick<Engine, "execute">,
  m: Modules,
  input: EmailChangeCaller & { token: string },
): Promise<{ email: string; previous_email: string }> {
  const changed = await engine.execute(changeCustomerEmailWorkflow, input);
  if (changed.previous_email === changed.email) return changed;
  await sendNotification(engine, m.notification, {
    to: changed.previous_email,
    channel: "email",
    template: "customer.email_changed",
    data: { email: changed.email, previous_email: changed.previous_email },
    resource_type: "customer",
  });
  return changed;
}
