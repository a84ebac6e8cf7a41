import { Type } from "@sinclair/typebox";
import { errors, Id, Title } from "@kasse/core";
import { ListView } from "@kasse/db";
import { UserUpdate, UserView } from "@kasse/modules/user";
import { removeUserAccountWorkflow } from "@kasse/flows";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { DeleteResponse, Filter, ListQueryOf, RetrieveQuery, IdParams, deleted } from "../../http/schemas";
import { errorAnswer } from "../../plugins/openapi-operations";

const ListUsers = ListQueryOf({ id: Id(), email: Filter("email") }, { q: Type.Optional(Title()) });
const One = { 200: Type.Object({ user: UserView }) };
const Many = { 200: ListView("users", UserView) };

/** Admin users: the caller (`/users/me`), list, retrieve, update, delete. Users are created with their identity (`createUserAccount`). */
export default async function users(app: App): Promise<void> {
  const service = app.modules.user;

  // As Medusa: the caller's actor id names the user; a secret API key's caller is the key, not a user, so it gets 404.
  app.get(
    "/users/me",
    {
      schema: {
        querystring: RetrieveQuery,
        response: { ...One, 404: errorAnswer("The caller is a secret API key, not a user") },
      },
    },
    async (request) => {
      return { user: project(await service.retrieve(request.auth!.actor_id), parseFields(request.query.fields)) };
    },
  );

  app.get("/users", { schema: { querystring: ListUsers, response: Many } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return { users: project(items, parseFields(fields)), count, offset, limit };
  });

  app.get(
    "/users/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => {
      return { user: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );

  // As Medusa (2.20+): what the user detail page shows as the ways this admin signs in.
  app.get(
    "/users/:id/auth-providers",
    { schema: { params: IdParams, response: { 200: Type.Object({ providers: Type.Array(Type.String()) }) } } },
    async (request) => {
      const user = await service.retrieve(request.params.id);
      return { providers: await app.modules.auth.providerIdsOfActor("user", user.id) };
    },
  );

  app.post("/users/:id", { schema: { params: IdParams, body: UserUpdate, response: One } }, async (request) => {
    return { user: await service.update(request.params.id, request.body) };
  });

  // As Medusa: an admin may remove other admins, never itself (so a store cannot lock itself out by accident).
  app.delete("/users/:id", { schema: { params: IdParams, response: { 200: DeleteResponse } } }, async (request) => {
    if (request.params.id === request.auth!.actor_id) throw errors.notAllowed("A user cannot delete itself");
    await app.infra.engine.execute(removeUserAccountWorkflow, { user_id: request.params.id });
    return deleted(request.params.id, "user");
  });
}
