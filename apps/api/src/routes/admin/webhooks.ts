import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import {
  eventsReleased,
  WebhookCreate,
  WebhookDeliveryView,
  WebhookUpdate,
  WebhookView,
  WebhookWithSecretView,
} from "@kasse/modules/event";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { parseFields, project } from "../../http/fields";
import { Answer, ListAnswer, ListQueryOf, listResponse, ChildParams, IdParams, NoFields } from "../../http/schemas";

const DeliveryParams = ChildParams("delivery_id");
const ListWebhooks = ListQueryOf({ id: Id() }, { enabled: Type.Optional(Type.Boolean()) });
const DeliveryStatus = Type.Union([
  Type.Literal("scheduled"),
  Type.Literal("sending"),
  Type.Literal("succeeded"),
  Type.Literal("failed"),
]);
const ListDeliveries = ListQueryOf({ event_id: Id(), status: DeliveryStatus });

/**
 * Admin webhooks (docs/events.md): endpoints receiving the event catalog as signed
 * Standard Webhooks messages. The secret is answered only by create and rotate-secret.
 */
export default async function webhooks(app: App): Promise<void> {
  const service = app.modules.webhooks;

  crudRoutes(app, {
    path: "/webhooks",
    one: "webhook",
    many: "webhooks",
    view: WebhookView,
    ...standardReads(service, ListWebhooks),
    create: { body: WebhookCreate, view: WebhookWithSecretView, run: (body) => service.create(body) },
    update: {
      body: WebhookUpdate,
      run: async (id, body) => {
        const webhook = await service.update(id, body);
        // Re-enabled: its waiting retries go out now (in embedded mode; a worker at its next poll).
        if (body.enabled) eventsReleased();
        return webhook;
      },
    },
    delete: (id) => service.delete(id),
  });

  app.post(
    "/webhooks/:id/rotate-secret",
    {
      schema: { params: IdParams, body: NoFields, response: Answer("webhook", WebhookWithSecretView) },
    },
    async (request) => {
      return { webhook: await service.rotateSecret(request.params.id) };
    },
  );

  app.get(
    "/webhooks/:id/deliveries",
    {
      schema: {
        params: IdParams,
        querystring: ListDeliveries,
        response: ListAnswer("deliveries", WebhookDeliveryView),
      },
    },
    async (request) => {
      const { limit, offset, fields, order: _order, ...filters } = request.query;
      const { items, count } = await service.listDeliveries(request.params.id, filters, { limit, offset });
      return listResponse("deliveries", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.post(
    "/webhooks/:id/deliveries/:delivery_id/redeliver",
    {
      schema: { params: DeliveryParams, body: NoFields, response: Answer("delivery", WebhookDeliveryView) },
    },
    async (request) => {
      const delivery = await service.redeliver(request.params.id, request.params.delivery_id);
      eventsReleased();
      return { delivery };
    },
  );
}
