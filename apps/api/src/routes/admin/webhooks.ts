import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/db";
import { eventsReleased, WebhookCreate, WebhookDeliveryView, WebhookUpdate, WebhookView, WebhookWithSecretView } from "@kasse/modules/event";
import type { App } from "../../app";
import { emptyBody } from "../../http/empty-body";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const DeliveryParams = Type.Object({ id: Id(), delivery_id: Id() });
const NoBody = Type.Object({}, { additionalProperties: false });
const ListWebhooks = Type.Object({ ...ListQuery, id: Type.Optional(ArrayQuery(Id())), enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const DeliveryStatus = Type.Union([Type.Literal("scheduled"), Type.Literal("sending"), Type.Literal("succeeded"), Type.Literal("failed")]);
const ListDeliveries = Type.Object({ ...ListQuery, event_id: Type.Optional(ArrayQuery(Id())), status: Type.Optional(ArrayQuery(DeliveryStatus)) }, { additionalProperties: false });

/**
 * Admin webhooks (README "Events and webhooks"): endpoints receiving the event catalog as signed
 * Standard Webhooks messages. The secret is answered only by create and rotate-secret.
 */
export default async function webhooks(app: App): Promise<void> {
  const service = app.modules.webhooks;

  app.get("/webhooks", { schema: { querystring: ListWebhooks, response: ListAnswer("webhooks", WebhookView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("webhooks", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/webhooks", { schema: { body: WebhookCreate, response: Answer("webhook", WebhookWithSecretView) } }, async (request) => {
    return { webhook: await service.create(request.body) };
  });

  app.get("/webhooks/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("webhook", WebhookView) } }, async (request) => {
    return { webhook: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/webhooks/:id", { schema: { params: Params, body: WebhookUpdate, response: Answer("webhook", WebhookView) } }, async (request) => {
    const webhook = await service.update(request.params.id, request.body);
    // Re-enabled: its waiting retries go out now (in embedded mode; a worker at its next poll).
    if (request.body.enabled) eventsReleased();
    return { webhook };
  });

  app.delete("/webhooks/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "webhook", deleted: true as const };
  });

  app.post("/webhooks/:id/rotate-secret", { schema: { params: Params, body: NoBody, response: Answer("webhook", WebhookWithSecretView) }, preValidation: emptyBody }, async (request) => {
    return { webhook: await service.rotateSecret(request.params.id) };
  });

  app.get("/webhooks/:id/deliveries", { schema: { params: Params, querystring: ListDeliveries, response: ListAnswer("deliveries", WebhookDeliveryView) } }, async (request) => {
    const { limit, offset, fields, order: _order, ...filters } = request.query;
    const { items, count } = await service.listDeliveries(request.params.id, filters, { limit, offset });
    return listResponse("deliveries", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post(
    "/webhooks/:id/deliveries/:delivery_id/redeliver",
    { schema: { params: DeliveryParams, body: NoBody, response: Answer("delivery", WebhookDeliveryView) }, preValidation: emptyBody },
    async (request) => {
      const delivery = await service.redeliver(request.params.id, request.params.delivery_id);
      eventsReleased();
      return { delivery };
    },
  );
}
