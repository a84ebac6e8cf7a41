import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { ListView } from "@kasse/db";
import { ApiKeyCreate, ApiKeySalesChannels, ApiKeyTypeSchema, ApiKeyUpdate, ApiKeyView } from "@kasse/modules/api-key";
import { setApiKeySalesChannels } from "@kasse/flows";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { DeleteResponse, ListQueryOf, RetrieveQuery, IdParams, deleted, NoFields } from "../../http/schemas";

const ListApiKeys = ListQueryOf(
  { id: Id() },
  { q: Type.Optional(Title()), type: Type.Optional(ApiKeyTypeSchema), revoked: Type.Optional(Type.Boolean()) },
);
// Declared so a token hash can never be serialized, and a secret token only where it is meant to be.
const One = { 200: Type.Object({ api_key: ApiKeyView }) };
const Many = { 200: ListView("api_keys", ApiKeyView) };

/** Admin API keys: secret keys (admin credentials, token shown once) and publishable keys (docs/CONTRACT.md "Keys"). */
export default async function apiKeys(app: App): Promise<void> {
  const keys = app.modules.apiKey;

  app.get("/api-keys", { schema: { querystring: ListApiKeys, response: Many } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await keys.list(filters, { limit, offset, order });
    return { api_keys: project(items, parseFields(fields)), count, offset, limit };
  });

  app.post("/api-keys", { schema: { body: ApiKeyCreate, response: One } }, async (request) => {
    return { api_key: await keys.create(request.body, request.auth!.actor_id) };
  });

  app.get(
    "/api-keys/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: One } },
    async (request) => {
      return { api_key: project(await keys.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );

  app.post("/api-keys/:id", { schema: { params: IdParams, body: ApiKeyUpdate, response: One } }, async (request) => {
    return { api_key: await keys.update(request.params.id, request.body, request.auth!.actor_id) };
  });

  app.post("/api-keys/:id/revoke", { schema: { params: IdParams, body: NoFields, response: One } }, async (request) => {
    const api_key = await keys.revoke(request.params.id, request.auth!.actor_id);
    app.publishableKeys.clear();
    return { api_key };
  });

  app.delete("/api-keys/:id", { schema: { params: IdParams, response: { 200: DeleteResponse } } }, async (request) => {
    await keys.delete(request.params.id, request.auth!.actor_id);
    app.publishableKeys.clear();
    return deleted(request.params.id, "api_key");
  });

  app.post(
    "/api-keys/:id/sales-channels",
    { schema: { params: IdParams, body: ApiKeySalesChannels, response: One } },
    async (request) => {
      const api_key = await setApiKeySalesChannels(app.modules, request.params.id, request.body);
      app.publishableKeys.clear();
      return { api_key };
    },
  );
}
