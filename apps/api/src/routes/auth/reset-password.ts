import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { Email, errors, normalizeEmail, Password } from "@kasse/core";
import { ActorType, actorIdOf, EMAILPASS, hasProven } from "@kasse/modules/auth";
import { issuePasswordReset, sendNotification } from "@kasse/flows";
import type { App } from "../../app-type";

/** How long a reset token works. */
const RESET_TOKEN_TTL_MS = 15 * 60_000;

const ActorParams = Type.Object({ actor_type: ActorType }, { additionalProperties: false });
// The contract sends `{email}`; Medusa's SDK sends `{identifier}` (docs/CONTRACT.md "Accepted alternatives").
const ResetRequest = Type.Union([
  Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }, { additionalProperties: false }),
  Type.Object({ identifier: Type.String({ minLength: 1, maxLength: 320 }) }, { additionalProperties: false }),
]);
// `token` may instead come as `Authorization: Bearer <token>`, as Medusa's SDK sends it.
const ResetUpdate = Type.Object(
  {
    email: Email(),
    token: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    password: Password(),
  },
  { additionalProperties: false },
);

/** The reset token from the body, else from a Bearer header. */
function resetTokenOf(request: FastifyRequest, body: { token?: string }): string {
  if (body.token) return body.token;
  const header = request.headers.authorization;
  const [scheme, value] = typeof header === "string" ? header.split(" ", 2) : [];
  if (scheme?.toLowerCase() === "bearer" && value) return value.trim();
  throw errors.unauthorized("A reset token is required");
}

/**
 * Password reset for customers and admin users. Requesting a reset always answers 201 with no
 * body, whether or not the email has an account, and the work happens after the answer, so
 * neither the response nor its timing reveals which emails exist. The token is single use,
 * expires after 15 minutes and is stored only as a hash.
 */
export default async function resetPassword(app: App): Promise<void> {
  const { auth, notification } = app.modules;
  // Resets still being processed after their answer; closing the app waits for them.
  const pending = new Set<Promise<void>>();
  app.addHook("onClose", async () => {
    await Promise.allSettled([...pending]);
  });

  /** Issues a token and sends the message, if the email has a password identity. */
  async function issueReset(actorType: string, rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const identity = await auth.findByProvider(EMAILPASS, email);
    if (!identity) return;
    // The token is issued with its event (which never carries the token) in one transaction.
    const { secret, row } = await issuePasswordReset(app.modules, {
      actor_type: actorType,
      provider: EMAILPASS,
      email,
      auth_identity_id: identity.id,
      ttlMs: RESET_TOKEN_TTL_MS,
    });
    await sendNotification(app.infra.engine, notification, {
      to: email,
      channel: "email",
      template: "auth.password_reset",
      data: {
        token: secret,
        email,
        actor_type: actorType,
        expires_at: row.expires_at.toISOString(),
        // A customer account registered with an address nobody proved: the reset takes it over (docs/security.md "Email ownership").
        unconfirmed: !hasProven(identity, email) && actorIdOf(identity, "customer") !== "",
      },
      secret_keys: ["token"],
      resource_type: actorType,
    });
  }

  app.post(
    "/:actor_type/emailpass/reset-password",
    {
      schema: {
        params: ActorParams,
        body: ResetRequest,
        response: {
          201: Type.Unsafe<undefined>({
            type: "null",
            description: "Accepted, with no body; an email is sent if the address has an account",
          }),
        },
      },
    },
    async (request, reply) => {
      const email = "email" in request.body ? request.body.email : request.body.identifier;
      const actorType = request.params.actor_type;
      // Not awaited: the answer must not wait for (or reveal) the lookup and the mail.
      const work = issueReset(actorType, email).catch((error: unknown) =>
        request.log.error({ err: error }, "password reset failed"),
      );
      pending.add(work);
      void work.finally(() => pending.delete(work));
      return reply.code(201).send();
    },
  );

  app.post(
    "/:actor_type/emailpass/update",
    {
      schema: {
        params: ActorParams,
        body: ResetUpdate,
        security: [{ bearer: [] }, {}],
        response: { 200: Type.Object({ success: Type.Literal(true) }) },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.body.email);
      const secret = resetTokenOf(request, request.body);
      await auth.resetPassword(secret, {
        actor_type: request.params.actor_type,
        email,
        password: request.body.password,
      });
      return { success: true as const };
    },
  );
}
