import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { ListView } from "@kasse/db";
import { InviteCreate, InviteView, type InviteDetails } from "@kasse/modules/user";
import { sendNotification } from "@kasse/flows";
import type { FastifyBaseLogger } from "fastify";
import type { App } from "../../app-type";
import { createInviteTokens } from "../../auth/invite-tokens";
import { parseFields, project } from "../../http/fields";
import { DeleteResponse, Filter, ListQueryOf, RetrieveQuery, IdParams, deleted, NoFields } from "../../http/schemas";

const ListInvites = ListQueryOf({ id: Id(), email: Filter("email") }, { q: Type.Optional(Title()) });
// Declared so the hash can never be serialized, and the token only in the answers that mint it.
const One = { 200: Type.Object({ invite: InviteView }) };
const Many = { 200: ListView("invites", InviteView) };

/**
 * Admin invites (Medusa's `/admin/invites`): create, list, retrieve, resend, delete. Creating and
 * resending answer the invite with its `token`, the only time it is shown, and email it to the
 * invitee. The invitee accepts with `POST /admin/invites/accept` (invite-accept.ts).
 */
export default async function invites(app: App): Promise<void> {
  const service = app.modules.invite;
  const tokens = createInviteTokens(app.config.jwt.secret);

  /** The invite with its token, after emailing the token (a failed delivery is recorded in the outbox, not thrown). */
  const deliver = async (invite: InviteDetails, secret: string, log: FastifyBaseLogger) => {
    const token = await tokens.sign(invite, secret);
    await sendNotification(app.infra.engine, app.modules.notification, {
      to: invite.email,
      channel: "email",
      template: "user.invite",
      data: { token, email: invite.email, expires_at: invite.expires_at.toISOString() },
      secret_keys: ["token"],
      resource_type: "invite",
    }).catch((error: unknown) => log.error({ err: error, invite_id: invite.id }, "invite notification failed"));
    return { invite: { ...invite, token } };
  };

  app.get("/invites", { schema: { querystring: ListInvites, response: Many } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return { invites: project(items, parseFields(fields)), count, offset, limit };
  });

  // An invite's token makes an admin account: only a user may mint one, never an API key.
  app.post(
    "/invites",
    { onRequest: app.guards.adminUser, schema: { body: InviteCreate, response: One } },
    async (request) => {
      const { invite, secret } = await service.create(request.body);
      return deliver(invite, secret, request.log);
    },
  );

  app.get(
    "/invites/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => {
      return { invite: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/invites/:id/resend",
    {
      onRequest: app.guards.adminUser,
      schema: { params: IdParams, body: NoFields, response: One },
    },
    async (request) => {
      const { invite, secret } = await service.resend(request.params.id);
      return deliver(invite, secret, request.log);
    },
  );

  app.delete("/invites/:id", { schema: { params: IdParams, response: { 200: DeleteResponse } } }, async (request) => {
    await service.delete(request.params.id);
    return deleted(request.params.id, "invite");
  });
}
