import { Type } from "@sinclair/typebox";
import { Amount, Count, Id, normalizeRange, OptionalMetadata, Title, toDate } from "@kasse/db";
import { FULFILLMENT_STATUSES, ORDER_STATUSES, OrderUpdate, PAYMENT_STATUSES, ReturnCreate, ReturnReceive, OrderChangeView, ReturnView } from "@kasse/modules/order";
import { ShipmentCreate } from "@kasse/modules/fulfillment";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, Filter, ListQuery, listResponse, RangeQuery, RetrieveQuery, Answer, ListAnswer } from "../../http/schemas";
import { orderView, orderViews, OrderDetailView } from "../../orders/view";
import {
  archiveOrderWorkflow,
  cancelFulfillmentWorkflow,
  cancelOrderWorkflow,
  cancelReturnWorkflow,
  capturePaymentWorkflow,
  completeOrderWorkflow,
  createFulfillmentWorkflow,
  createReturnWorkflow,
  createShipmentWorkflow,
  markDeliveredWorkflow,
  receiveReturnWorkflow,
  refundPaymentWorkflow,
} from "@kasse/flows";

const Params = Type.Object({ id: Id() });
const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const ListOrders = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    status: Type.Optional(ArrayQuery(oneOf(ORDER_STATUSES))),
    payment_status: Type.Optional(ArrayQuery(oneOf(PAYMENT_STATUSES))),
    fulfillment_status: Type.Optional(ArrayQuery(oneOf(FULFILLMENT_STATUSES))),
    sales_channel_id: Type.Optional(ArrayQuery(Id())),
    customer_id: Type.Optional(ArrayQuery(Id())),
    email: Type.Optional(ArrayQuery(Filter("email"))),
    region_id: Type.Optional(ArrayQuery(Id())),
    created_at: Type.Optional(RangeQuery()),
    updated_at: Type.Optional(RangeQuery()),
  },
  { additionalProperties: false },
);
const CollectionParams = Type.Object({ id: Id(), payment_collection_id: Id() });
/** Body of a collection capture: `amount` (default: all that is authorized and not captured). */
const CaptureBody = Type.Object({ amount: Type.Optional(Amount({ minimum: 1 })) }, { additionalProperties: false });
/** Body of a collection refund (docs/CONTRACT.md): `amount` in cents, `reason`; Medusa's `note` too. */
const RefundBody = Type.Object({ amount: Amount({ minimum: 1 }), reason: Type.Optional(Type.String({ maxLength: 1000 })), note: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false });
const FulfillmentParams = Type.Object({ id: Id(), fulfillment_id: Id() });
/** Body of `POST /admin/orders/{id}/fulfillments` (docs/CONTRACT.md). */
const FulfillmentCreate = Type.Object(
  {
    items: Type.Array(Type.Object({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }) }, { additionalProperties: false }), { minItems: 1, maxItems: 1000 }),
    location_id: Id({ minLength: 1 }),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
const ReturnParams = Type.Object({ id: Id(), return_id: Id() });
const ListChanges = Type.Object({ limit: ListQuery.limit, offset: ListQuery.offset, fields: ListQuery.fields }, { additionalProperties: false });

const One = Answer("order", OrderDetailView);
const WithReturn = { 200: Type.Object({ order: OrderDetailView, return: ReturnView }) };

/** The admin making the request, for the order change log. */
const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/**
 * Admin orders (docs/CONTRACT.md): list with the contract's filters, retrieve, update, the change log;
 * cancel, complete, archive, fulfillments and shipments, capture/refund of the order's payment
 * collections, returns (workflows).
 */
export default async function orders(app: App): Promise<void> {
  const { order: service } = app.modules;

  app.get("/orders", { schema: { querystring: ListOrders, response: ListAnswer("orders", OrderDetailView) } }, async (request) => {
    const { limit, offset, order, fields, created_at, updated_at, ...filters } = request.query;
    const range = { created_at: created_at === undefined ? undefined : normalizeRange(created_at, toDate), updated_at: updated_at === undefined ? undefined : normalizeRange(updated_at, toDate) };
    const { items, count } = await service.list({ ...filters, ...range }, { limit, offset, order });
    return listResponse("orders", project(await orderViews(app.modules, items), parseFields(fields)), count, { limit, offset });
  });

  app.get("/orders/:id", { schema: { params: Params, querystring: RetrieveQuery, response: One } }, async (request) => {
    return { order: project(await orderView(app.modules, await service.retrieve(request.params.id)), parseFields(request.query.fields)) };
  });

  app.post("/orders/:id", { schema: { params: Params, body: OrderUpdate, response: One } }, async (request) => {
    return { order: await orderView(app.modules, await service.update(request.params.id, request.body, actor(request))) };
  });

  app.post("/orders/:id/cancel", { schema: { params: Params, response: One } }, async (request) => {
    await app.infra.engine.execute(cancelOrderWorkflow, { order_id: request.params.id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  // Medusa's dialect reads `amount` in the collection's currency.
  const collectionCurrency = { medusa: { context: async (request: FastifyRequest) => ({ currency_code: (await app.modules.payment.retrieveCollection((request.params as { payment_collection_id: string }).payment_collection_id)).currency_code }) } };

  app.post("/orders/:id/payment-collections/:payment_collection_id/capture", { config: collectionCurrency, schema: { params: CollectionParams, body: Type.Optional(CaptureBody), response: One } }, async (request) => {
    const { id, payment_collection_id } = request.params;
    await app.infra.engine.execute(capturePaymentWorkflow, { order_id: id, payment_collection_id, amount: request.body?.amount ?? null, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(id)) };
  });

  app.post("/orders/:id/payment-collections/:payment_collection_id/refund", { config: collectionCurrency, schema: { params: CollectionParams, body: RefundBody, response: One } }, async (request) => {
    const { id, payment_collection_id } = request.params;
    const { amount, reason, note } = request.body;
    await app.infra.engine.execute(refundPaymentWorkflow, { order_id: id, payment_collection_id, amount, reason: reason ?? note ?? null, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(id)) };
  });

  app.post("/orders/:id/fulfillments", { schema: { params: Params, body: FulfillmentCreate, response: One } }, async (request) => {
    await app.infra.engine.execute(createFulfillmentWorkflow, { order_id: request.params.id, ...request.body, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/fulfillments/:fulfillment_id/cancel", { schema: { params: FulfillmentParams, response: One } }, async (request) => {
    await app.infra.engine.execute(cancelFulfillmentWorkflow, { order_id: request.params.id, fulfillment_id: request.params.fulfillment_id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/fulfillments/:fulfillment_id/shipments", { schema: { params: FulfillmentParams, body: Type.Optional(ShipmentCreate), response: One } }, async (request) => {
    await app.infra.engine.execute(createShipmentWorkflow, { order_id: request.params.id, fulfillment_id: request.params.fulfillment_id, shipment: request.body ?? {}, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/fulfillments/:fulfillment_id/mark-as-delivered", { schema: { params: FulfillmentParams, response: One } }, async (request) => {
    await app.infra.engine.execute(markDeliveredWorkflow, { order_id: request.params.id, fulfillment_id: request.params.fulfillment_id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/complete", { schema: { params: Params, response: One } }, async (request) => {
    await app.infra.engine.execute(completeOrderWorkflow, { order_id: request.params.id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/archive", { schema: { params: Params, response: One } }, async (request) => {
    await app.infra.engine.execute(archiveOrderWorkflow, { order_id: request.params.id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)) };
  });

  app.post("/orders/:id/returns", { schema: { params: Params, body: ReturnCreate, response: WithReturn } }, async (request) => {
    const created = await app.infra.engine.execute(createReturnWorkflow, { order_id: request.params.id, return: request.body, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(request.params.id)), return: await app.modules.orderReturn.retrieve(created.id) };
  });

  app.post("/orders/:id/returns/:return_id/receive", { schema: { params: ReturnParams, body: Type.Optional(ReturnReceive), response: WithReturn } }, async (request) => {
    const { id, return_id } = request.params;
    await app.infra.engine.execute(receiveReturnWorkflow, { return_id, order_id: id, receive: request.body ?? {}, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(id)), return: await app.modules.orderReturn.retrieve(return_id) };
  });

  app.post("/orders/:id/returns/:return_id/cancel", { schema: { params: ReturnParams, response: WithReturn } }, async (request) => {
    const { id, return_id } = request.params;
    await app.infra.engine.execute(cancelReturnWorkflow, { return_id, order_id: id, actor: actor(request) });
    return { order: await orderView(app.modules, await service.retrieve(id)), return: await app.modules.orderReturn.retrieve(return_id) };
  });

  app.get("/orders/:id/changes", { schema: { params: Params, querystring: ListChanges, response: ListAnswer("order_changes", OrderChangeView) } }, async (request) => {
    const { limit, offset, fields } = request.query;
    const { items, count } = await service.listChanges(request.params.id, { limit, offset });
    return listResponse("order_changes", project(items, parseFields(fields)), count, { limit, offset });
  });
}
