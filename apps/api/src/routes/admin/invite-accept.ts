import { Type } from "@sinclair/typebox";
import { errors } from "@kasse/core";
import { normalizeEmail } from "@kasse/core";
import { EMAILPASS } from "@kasse/modules/auth";
import { InviteAccept, UserView } from "@kasse/modules/user";
import { acceptInviteWorkflow } from "@kasse/flows";
import type { App } from "../../app-type";
import { createInviteTokens, invalidInvite } from "../../auth/invite-tokens";
import { parseFields, project } from "../../http/fields";
import { Fields } from "../../http/schemas";
import { BEARER_SECURITY } from "../../plugins/openapi-operations";

const AcceptQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 4096 }), fields: Type.Optional(Fields()) },
  { additionalProperties: false },
);

/**
 * `POST /admin/invites/accept?token=<invite token>`: the invitee, holding a registration token
 * from `POST /auth/user/emailpass/register` (Bearer), becomes an admin user (Medusa's accept
 * route). Registered beside the admin routes, outside their guard: the caller is not an admin yet.
 * The registration's email must be the invite's (an invite is addressed to one email); a token
 * already used, deleted or expired answers 401.
 */
export default async function inviteAccept(app: App): Promise<void> {
  const tokens = createInviteTokens(app.config.jwt.secret);

  // Outside the admin guard: the caller is a registration token, not an admin yet.
  app.post(
    "/invites/accept",
    {
      schema: {
        security: BEARER_SECURITY,
        querystring: AcceptQuery,
        body: InviteAccept,
        response: { 200: Type.Object({ user: UserView }) },
      },
    },
    async (request) => {
      const caller = request.auth;
      if (request.authError) throw request.authError;
      if (!caller || caller.via !== "jwt" || caller.actor_type !== "user")
        throw errors.unauthorized("A user registration token is required (POST /auth/user/emailpass/register)");
      if (caller.actor_id) throw errors.invalidData("The user is already authenticated and cannot accept an invite.");

      const invite = await app.modules.invite.findOpen(await tokens.secretOf(request.query.token));
      if (!invite) throw invalidInvite();
      if (request.body.email != null && normalizeEmail(request.body.email) !== invite.email)
        throw errors.invalidData("The invite was sent to another email");
      const identity = await app.modules.auth.retrieve(caller.auth_identity_id);
      if (!identity.provider_identities.some((p) => p.provider === EMAILPASS && p.entity_id === invite.email)) {
        throw errors.invalidData("Register with the email the invite was sent to");
      }

      const { user_id } = await app.infra.engine.execute(acceptInviteWorkflow, {
        invite_id: invite.id,
        auth_identity_id: caller.auth_identity_id,
        first_name: request.body.first_name ?? null,
        last_name: request.body.last_name ?? null,
      });
      return { user: project(await app.modules.user.retrieve(user_id), parseFields(request.query.fields)) };
    },
  );
}
