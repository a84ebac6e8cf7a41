import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import { writeWithEvents } from "./events";

/**
 * Issues a password reset token with its `auth.password_reset` event (which never carries the
 * token) in one transaction.
 * @example
 * const { secret, row } = await issuePasswordReset(app.modules, { actor_type: "customer", provider: "emailpass", email, auth_identity_id, ttlMs: 15 * 60_000 });
 */
export function issuePasswordReset(
  m: Modules,
  input: { actor_type: string; provider: string; email: string; auth_identity_id: string; ttlMs: number },
) {
  return writeWithEvents(async () => {
    const issued = await m.authTokens.issue({
      kind: "password_reset",
      actor_type: input.actor_type,
      provider: input.provider,
      ttlMs: input.ttlMs,
      auth_identity_id: input.auth_identity_id,
      entity_id: input.email,
    });
    await recordEvent("auth.password_reset", { entity_id: input.email, actor_type: input.actor_type });
    return issued;
  });
}
