import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { orderCurrency } from "../../orders/currency";
import { Amount, Count, errors, Id, OptionalMetadata, Title } from "@kasse/core";
import { Extend, normalizeRange, toDate } from "@kasse/db";
import {
  FULFILLMENT_STATUSES,
  ORDER_STATUSES,
  OrderUpdate,
  PAYMENT_STATUSES,
  type Order,
  ReturnCreate,
  OrderCreditLineCreate,
  ReturnReceive,
  OrderChangeView,
  OrderVersionChangeView,
  OrderChangeActionView,
  ReturnChangeView,
  ORDER_CHANGE_STATUSES,
  ORDER_CHANGE_TYPES,
  type OrderChangeType,
  ReturnView,
} from "@kasse/modules/order";
import { ShipmentCreate } from "@kasse/modules/fulfillment";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { always, parseFields, project } from "../../http/fields";
import {
  Answer,
  ArrayQuery,
  Filter,
  ListAnswer,
  ListQuery,
  ListQueryOf,
  listResponse,
  RangeQuery,
  RetrieveQuery,
  ChildParams,
  IdParams,
} from "../../http/schemas";
import { orderView, orderViews } from "../../orders/view";
import { adminOrderViews, AdminOrderView } from "../../orders/admin-extras";
import { orderPreview, OrderPreviewView } from "../../orders/preview";
import { orderAtVersion, orderItems, OrderItemView } from "../../orders/line-items";
import {
  archiveOrder,
  cancelFulfillmentWorkflow,
  cancelOrderWorkflow,
  cancelReturnWorkflow,
  capturePaymentWorkflow,
  completeOrder,
  createFulfillmentWorkflow,
  createReturnWorkflow,
  createShipmentWorkflow,
  markDeliveredWorkflow,
  receiveReturnWorkflow,
  refundPaymentWorkflow,
} from "@kasse/flows";

const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const ListOrders = ListQueryOf(
  {
    id: Id(),
    status: oneOf(ORDER_STATUSES),
    payment_status: oneOf(PAYMENT_STATUSES),
    fulfillment_status: oneOf(FULFILLMENT_STATUSES),
    sales_channel_id: Id(),
    customer_id: Id(),
    email: Filter("email"),
    region_id: Id(),
  },
  { q: Type.Optional(Title()), created_at: Type.Optional(RangeQuery()), updated_at: Type.Optional(RangeQuery()) },
);
const CollectionParams = ChildParams("payment_collection_id");
/** Body of a collection capture: `amount` (default: all that is authorized and not captured). */
const CaptureBody = Type.Object({ amount: Type.Optional(Amount({ minimum: 1 })) }, { additionalProperties: false });
/** Body of a collection refund (docs/CONTRACT.md): `amount` in cents, `reason`; Medusa's `note` too. */
const RefundBody = Type.Object(
  {
    amount: Amount({ minimum: 1 }),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    refund_reason_id: Type.Optional(Id({ minLength: 1 })),
  },
  { additionalProperties: false },
);
const FulfillmentParams = ChildParams("fulfillment_id");
/** Body of `POST /admin/orders/{id}/fulfillments` (docs/CONTRACT.md). */
const FulfillmentCreate = Type.Object(
  {
    items: Type.Array(
      Type.Object({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }) }, { additionalProperties: false }),
      { minItems: 1, maxItems: 1000 },
    ),
    location_id: Id({ minLength: 1 }),
    /** Fulfil with this option's provider rather than the one the customer chose (Medusa's fulfillment form). */
    shipping_option_id: Type.Optional(Id({ minLength: 1 })),
    /** Medusa's flag to silence the fulfillment notice; Kasse sends none for a fulfillment (the shipment's notice is the customer's message). */
    no_notification: Type.Optional(Type.Boolean()),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
const ReturnParams = ChildParams("return_id");
/** Medusa's order change kinds a list may ask for (Kasse records edits; see `GET /orders/{id}/changes`). */
const CHANGE_TYPES = [...ORDER_CHANGE_TYPES, "return", "transfer", "update_order"] as const;
/**
 * An entry of `GET /orders/{id}/changes`: a log entry (`action`, `before`, `after`), or, when the
 * list is filtered by `change_type` or `status`, one of Medusa's order changes with its actions.
 */
const ChangeEntryView = Extend(OrderChangeView, {
  ...(OrderVersionChangeView as unknown as { properties: Record<string, TSchema> }).properties,
  ...(ReturnChangeView as unknown as { properties: Record<string, TSchema> }).properties,
  actions: Type.Array(OrderChangeActionView),
  /** The order's: what the actions' amounts are in (Medusa's dialect converts them). */
  currency_code: Type.Optional(Type.String()),
});
const ListChanges = Type.Object(
  {
    limit: ListQuery.limit,
    offset: ListQuery.offset,
    fields: ListQuery.fields,
    id: Type.Optional(ArrayQuery(Id())),
    change_type: Type.Optional(ArrayQuery(oneOf(CHANGE_TYPES))),
    status: Type.Optional(ArrayQuery(oneOf(ORDER_CHANGE_STATUSES))),
  },
  { additionalProperties: false },
);
/** `version`: Medusa numbers an order's states from 1; each confirmed edit makes the next one. */
const RetrieveOrder = Type.Object(
  { fields: RetrieveQuery.properties.fields, version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })) },
  { additionalProperties: false },
);

/** Medusa's `GET /admin/orders/{id}/line-items` filters: lines (`item_id`, or `id`) at a version. */
const ListLineItems = Type.Object(
  {
    fields: RetrieveQuery.properties.fields,
    id: Type.Optional(ArrayQuery(Id())),
    item_id: Type.Optional(ArrayQuery(Id())),
    version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

const One = Answer("order", AdminOrderView);
/** Medusa answers an order's payment and fulfillment status whatever `fields` names. */
const orderFields = (fields: string | undefined) => always(parseFields(fields), "payment_status", "fulfillment_status");
const WithReturn = { 200: Type.Object({ order: AdminOrderView, return: ReturnView }) };

/** The admin making the request, for the order change log. */
const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/** The order and fulfillment of a `/orders/:id/fulfillments/:fulfillment_id/...` path, and who acts on them. */
const fulfillmentOf = (request: FastifyRequest & { params: Static<typeof FulfillmentParams> }) => ({
  order_id: request.params.id,
  fulfillment_id: request.params.fulfillment_id,
  actor: actor(request),
});

/**
 * Admin orders (docs/CONTRACT.md): list with the contract's filters, retrieve, update, the change log;
 * cancel, complete, archive, fulfillments and shipments, capture/refund of the order's payment
 * collections, returns (workflows).
 */
export default async function orders(app: App): Promise<void> {
  const { order: service } = app.modules;
  /** The order as the Admin API answers it, shaped by `fields`. */
  const respond = async (order: string | Order, fields?: string) => {
    const selection = orderFields(fields);
    const view = await orderView(app.modules, typeof order === "string" ? await service.retrieve(order) : order);
    return { order: project((await adminOrderViews(app.modules, [view], selection))[0]!, selection) };
  };

  app.get(
    "/orders",
    { schema: { querystring: ListOrders, response: ListAnswer("orders", AdminOrderView) } },
    async (request) => {
      const { limit, offset, order, fields, created_at, updated_at, ...filters } = request.query;
      const range = {
        created_at: created_at === undefined ? undefined : normalizeRange(created_at, toDate),
        updated_at: updated_at === undefined ? undefined : normalizeRange(updated_at, toDate),
      };
      const { items, count, returns } = await service.listWithReturns(
        { ...filters, ...range },
        { limit, offset, order },
      );
      const selection = orderFields(fields);
      const views = await orderViews(app.modules, items, "admin", { returns });
      return listResponse("orders", project(await adminOrderViews(app.modules, views, selection), selection), count, {
        limit,
        offset,
      });
    },
  );

  app.get(
    "/orders/:id",
    { schema: { params: IdParams, querystring: RetrieveOrder, response: One } },
    async (request) => {
      const { fields, version } = request.query;
      const order = await service.retrieve(request.params.id);
      const at = version === undefined ? order : await orderAtVersion(app.modules, order, version);
      if (!at) throw errors.notFound(`Order ${order.id} has no version ${version}`);
      return respond(at, fields);
    },
  );

  // The order's lines as order items, at its current version or an earlier one (the dashboard shows
  // an edit's removed lines from the version before it).
  app.get(
    "/orders/:id/line-items",
    {
      schema: {
        params: IdParams,
        querystring: ListLineItems,
        // The order's currency beside its items: what their amounts are in (Medusa's dialect converts them).
        response: { 200: Type.Object({ order_items: Type.Array(OrderItemView), currency_code: Type.String() }) },
      },
    },
    async (request) => {
      const { fields, id, item_id, version } = request.query;
      const order = await service.retrieve(request.params.id);
      const items = await orderItems(app.modules, order, version);
      if (!items) throw errors.notFound(`Order ${order.id} has no version ${version}`);
      const wanted = [...(id ?? []), ...(item_id ?? [])];
      const chosen = wanted.length ? items.filter((i) => wanted.includes(i.item_id)) : items;
      return { order_items: project(chosen, parseFields(fields)), currency_code: order.currency_code };
    },
  );

  // Medusa's preview: the order with its active change applied (an order edit, a return request or
  // receipt; Kasse has no claims or exchanges).
  app.get(
    "/orders/:id/preview",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: Answer("order", OrderPreviewView) } },
    async (request) => {
      return { order: await orderPreview(app.modules, request.params.id, request.query.fields) };
    },
  );

  app.post("/orders/:id", { schema: { params: IdParams, body: OrderUpdate, response: One } }, async (request) => {
    await service.update(request.params.id, request.body, actor(request));
    return respond(request.params.id);
  });

  app.post("/orders/:id/cancel", { schema: { params: IdParams, response: One } }, async (request) => {
    await app.infra.engine.execute(cancelOrderWorkflow, { order_id: request.params.id, actor: actor(request) });
    return respond(request.params.id);
  });

  // Medusa's dialect reads `amount` in the collection's currency.
  const collectionCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => ({
        currency_code: (
          await app.modules.payment.retrieveCollection(
            (request.params as { payment_collection_id: string }).payment_collection_id,
          )
        ).currency_code,
      }),
    },
  };

  app.post(
    "/orders/:id/payment-collections/:payment_collection_id/capture",
    {
      config: collectionCurrency,
      schema: { params: CollectionParams, body: CaptureBody, response: One },
    },
    async (request) => {
      const { id, payment_collection_id } = request.params;
      await app.infra.engine.execute(capturePaymentWorkflow, {
        order_id: id,
        payment_collection_id,
        amount: request.body?.amount ?? null,
        actor: actor(request),
      });
      return respond(id);
    },
  );

  app.post(
    "/orders/:id/payment-collections/:payment_collection_id/refund",
    { config: collectionCurrency, schema: { params: CollectionParams, body: RefundBody, response: One } },
    async (request) => {
      const { id, payment_collection_id } = request.params;
      const { amount, reason, note, refund_reason_id } = request.body;
      await app.infra.engine.execute(refundPaymentWorkflow, {
        order_id: id,
        payment_collection_id,
        amount,
        reason: reason ?? note ?? null,
        refund_reason_id: refund_reason_id ?? null,
        actor: actor(request),
      });
      return respond(id);
    },
  );

  app.post(
    "/orders/:id/fulfillments",
    { schema: { params: IdParams, body: FulfillmentCreate, response: One } },
    async (request) => {
      const { no_notification: _silent, ...fulfillment } = request.body;
      await app.infra.engine.execute(createFulfillmentWorkflow, {
        order_id: request.params.id,
        ...fulfillment,
        actor: actor(request),
      });
      return respond(request.params.id);
    },
  );

  app.post(
    "/orders/:id/fulfillments/:fulfillment_id/cancel",
    { schema: { params: FulfillmentParams, response: One } },
    async (request) => {
      await app.infra.engine.execute(cancelFulfillmentWorkflow, fulfillmentOf(request));
      return respond(request.params.id);
    },
  );

  app.post(
    "/orders/:id/fulfillments/:fulfillment_id/shipments",
    { schema: { params: FulfillmentParams, body: ShipmentCreate, response: One } },
    async (request) => {
      await app.infra.engine.execute(createShipmentWorkflow, {
        ...fulfillmentOf(request),
        shipment: request.body ?? {},
      });
      return respond(request.params.id);
    },
  );

  app.post(
    "/orders/:id/fulfillments/:fulfillment_id/mark-as-delivered",
    { schema: { params: FulfillmentParams, response: One } },
    async (request) => {
      await app.infra.engine.execute(markDeliveredWorkflow, fulfillmentOf(request));
      return respond(request.params.id);
    },
  );

  app.post("/orders/:id/complete", { schema: { params: IdParams, response: One } }, async (request) => {
    await completeOrder(app.modules, request.params.id, actor(request));
    return respond(request.params.id);
  });

  app.post("/orders/:id/archive", { schema: { params: IdParams, response: One } }, async (request) => {
    await archiveOrder(app.modules, request.params.id, actor(request));
    return respond(request.params.id);
  });

  // Medusa's credit line: a confirmed `credit_line` change, the order's next version (docs/orders.md).
  app.post(
    "/orders/:id/credit-lines",
    {
      config: orderCurrency(app.modules),
      schema: { params: IdParams, querystring: RetrieveQuery, body: OrderCreditLineCreate, response: One },
    },
    async (request) => {
      const order = await app.modules.creditLine.create(request.params.id, request.body, actor(request));
      return respond(order, request.query.fields);
    },
  );

  app.post(
    "/orders/:id/returns",
    { schema: { params: IdParams, body: ReturnCreate, response: WithReturn } },
    async (request) => {
      const created = await app.infra.engine.execute(createReturnWorkflow, {
        order_id: request.params.id,
        return: request.body,
        actor: actor(request),
      });
      return { ...(await respond(request.params.id)), return: await app.modules.orderReturn.retrieve(created.id) };
    },
  );

  app.post(
    "/orders/:id/returns/:return_id/receive",
    { schema: { params: ReturnParams, body: ReturnReceive, response: WithReturn } },
    async (request) => {
      const { id, return_id } = request.params;
      await app.infra.engine.execute(receiveReturnWorkflow, {
        return_id,
        order_id: id,
        receive: request.body ?? {},
        actor: actor(request),
      });
      return { ...(await respond(id)), return: await app.modules.orderReturn.retrieve(return_id) };
    },
  );

  app.post(
    "/orders/:id/returns/:return_id/cancel",
    { schema: { params: ReturnParams, response: WithReturn } },
    async (request) => {
      const { id, return_id } = request.params;
      await app.infra.engine.execute(cancelReturnWorkflow, { return_id, order_id: id, actor: actor(request) });
      return { ...(await respond(id)), return: await app.modules.orderReturn.retrieve(return_id) };
    },
  );

  app.get(
    "/orders/:id/changes",
    { schema: { params: IdParams, querystring: ListChanges, response: ListAnswer("order_changes", ChangeEntryView) } },
    async (request) => {
      const { limit, offset, fields, id, change_type, status } = request.query;
      // Unfiltered, the list is Kasse's change log (an audit trail of what happened to the order);
      // by change type or status, Medusa's order changes (Kasse's edits and return changes).
      if (change_type?.length || status?.length) {
        const { currency_code } = await service.retrieve(request.params.id);
        // Medusa's `return` names both kinds of return change.
        const kinds = change_type
          ?.flatMap((t) => (t === "return" ? ["return_request", "return_receive"] : [t]))
          .filter((t) => (ORDER_CHANGE_TYPES as readonly string[]).includes(t)) as OrderChangeType[] | undefined;
        const { items, count } = await app.modules.orderEdit.list(
          request.params.id,
          { id, change_type: change_type ? (kinds ?? []) : undefined, status },
          { limit, offset },
        );
        const changes = items.map((change) => ({ ...change, currency_code }));
        return listResponse("order_changes", project(changes, parseFields(fields)), count, { limit, offset });
      }
      const { items, count } = await service.listChanges(request.params.id, { limit, offset, id });
      return listResponse("order_changes", project(items, parseFields(fields)), count, { limit, offset });
    },
  );
}
