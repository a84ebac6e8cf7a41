import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend, normalizeRange, toDate } from "@kasse/db";
import {
  activeDraftEdit,
  addDraftEditItems,
  addDraftPromotions,
  addOrderEditShipping,
  confirmDraftOrderEdit,
  convertDraftOrderWorkflow,
  createDraftOrder,
  removeDraftPromotions,
  updateDraftOrder,
  updateDraftEditShipping,
  updateOrderEditItem,
} from "@kasse/flows";
import {
  DraftEditItemsAdd,
  DraftEditShippingUpdate,
  DraftOrderCreate,
  DraftOrderUpdate,
  OrderEditItemUpdate,
  OrderEditShippingAdd,
  type Order,
} from "@kasse/modules/order";
import { PromoCodes } from "@kasse/modules/cart";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { always, parseFields, project } from "../../http/fields";
import {
  Answer,
  ChildParams,
  Deleted,
  deleted,
  Filter,
  IdParams,
  ListAnswer,
  ListQueryOf,
  listResponse,
  NoFields,
  RangeQuery,
  RetrieveQuery,
} from "../../http/schemas";
import { orderView, orderViews } from "../../orders/view";
import { adminOrderViews, AdminOrderView } from "../../orders/admin-extras";
import { orderPreview, OrderPreviewView } from "../../orders/preview";

const ListDraftOrders = ListQueryOf(
  { id: Id(), sales_channel_id: Id(), customer_id: Id(), email: Filter("email"), region_id: Id() },
  { q: Type.Optional(Title()), created_at: Type.Optional(RangeQuery()), updated_at: Type.Optional(RangeQuery()) },
);
/** A draft order as Medusa answers it: an order with status `draft` and `is_draft_order`. */
const DraftOrderView = Extend(AdminOrderView, { is_draft_order: Type.Boolean() });
const Draft = Answer("draft_order", DraftOrderView);
/** Each step of a draft's edit answers the draft as confirming the edit would leave it. */
const Preview = Answer("draft_order_preview", Extend(OrderPreviewView, { is_draft_order: Type.Boolean() }));
const ActionParams = ChildParams("action_id");
const ItemParams = ChildParams("item_id");

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/**
 * Medusa's draft orders (docs/orders.md "Draft orders"): an admin enters an order for a customer
 * or an email (`status` `draft`: no stock, no payment, absent from the order lists and the store),
 * edits it through the order-edit machinery (`/edit…`: begin, lines, shipping, promotion codes,
 * request, confirm, cancel), and converts it to an order (the convert-draft-order saga: reserved, `order.placed`, a
 * payment collection for its total).
 */
export default async function draftOrders(app: App): Promise<void> {
  const m = app.modules;
  const fieldsOf = (fields?: string) => always(parseFields(fields), "payment_status", "fulfillment_status");
  /** Admin order views of drafts, with `is_draft_order`. */
  const views = async (orders: Order[], fields?: string) => {
    const selection = fieldsOf(fields);
    const admin = await adminOrderViews(m, await orderViews(m, orders), selection);
    return admin.map((o) => project({ ...o, is_draft_order: o.status === "draft" }, selection));
  };
  const preview = async (id: string) => ({
    draft_order_preview: { ...(await orderPreview(m, id)), is_draft_order: true },
  });
  /** The active edit of the draft the route names, for the order-edit functions. */
  const editOf = async (request: FastifyRequest) => (await activeDraftEdit(m, idOf(request))).id;
  // Medusa's dialect reads body amounts in the draft's currency (its region's, when it is created).
  const draftCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => ({
        currency_code: (await m.draftOrder.retrieve(idOf(request))).currency_code,
      }),
    },
  };
  const regionCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const regionId = (request.body as { region_id?: unknown } | undefined)?.region_id;
        if (typeof regionId !== "string") return undefined;
        const region = await m.region.retrieve(regionId).catch(() => undefined);
        return region ? { currency_code: region.currency_code } : undefined;
      },
    },
  };

  app.get(
    "/draft-orders",
    { schema: { querystring: ListDraftOrders, response: ListAnswer("draft_orders", DraftOrderView) } },
    async (request) => {
      const { limit, offset, order, fields, created_at, updated_at, ...filters } = request.query;
      const range = {
        created_at: created_at === undefined ? undefined : normalizeRange(created_at, toDate),
        updated_at: updated_at === undefined ? undefined : normalizeRange(updated_at, toDate),
      };
      const { items, count } = await m.draftOrder.list({ ...filters, ...range }, { limit, offset, order });
      return listResponse("draft_orders", await views(items, fields), count, { limit, offset });
    },
  );

  app.post(
    "/draft-orders",
    { config: regionCurrency, schema: { body: DraftOrderCreate, response: Draft } },
    async (request) => {
      const draft = await createDraftOrder(m, request.body, actor(request));
      return { draft_order: (await views([draft]))[0]! };
    },
  );

  app.get(
    "/draft-orders/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: Draft } },
    async (request) => ({
      draft_order: (await views([await m.draftOrder.retrieve(request.params.id)], request.query.fields))[0]!,
    }),
  );

  app.post(
    "/draft-orders/:id",
    { schema: { params: IdParams, body: DraftOrderUpdate, response: Draft } },
    async (request) => {
      const draft = await updateDraftOrder(m, request.params.id, request.body, actor(request));
      return { draft_order: (await views([draft]))[0]! };
    },
  );

  app.delete("/draft-orders/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await m.draftOrder.delete(request.params.id);
    return deleted(request.params.id, "draft-order");
  });

  app.post(
    "/draft-orders/:id/convert-to-order",
    { schema: { params: IdParams, body: NoFields, response: Answer("order", AdminOrderView) } },
    async (request) => {
      const { order_id } = await app.infra.engine.execute(convertDraftOrderWorkflow, {
        draft_order_id: request.params.id,
        actor: actor(request),
      });
      const selection = fieldsOf(undefined);
      const [view] = await adminOrderViews(m, [await orderView(m, await m.order.retrieve(order_id))], selection);
      return { order: project(view!, selection) };
    },
  );

  // The draft's edit: Medusa's order change on a draft, begun, put together and confirmed here.
  app.post(
    "/draft-orders/:id/edit",
    { schema: { params: IdParams, body: NoFields, response: Preview } },
    async (request) => {
      await m.orderEdit.begin({ order_id: request.params.id }, actor(request), { draft: true });
      return preview(request.params.id);
    },
  );

  app.delete("/draft-orders/:id/edit", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await m.orderEdit.cancel(await editOf(request), actor(request));
    return deleted(request.params.id, "draft-order-edit");
  });

  app.post(
    "/draft-orders/:id/edit/items",
    { config: draftCurrency, schema: { params: IdParams, body: DraftEditItemsAdd, response: Preview } },
    async (request) => {
      await addDraftEditItems(m, request.params.id, request.body);
      return preview(request.params.id);
    },
  );

  // An existing line of the draft: its new quantity (0 takes it off) and price.
  app.post(
    "/draft-orders/:id/edit/items/item/:item_id",
    { config: draftCurrency, schema: { params: ItemParams, body: OrderEditItemUpdate, response: Preview } },
    async (request) => {
      await updateOrderEditItem(m, await editOf(request), request.params.item_id, request.body);
      return preview(request.params.id);
    },
  );

  // A line the edit added, by its ITEM_ADD action.
  app.post(
    "/draft-orders/:id/edit/items/:action_id",
    { config: draftCurrency, schema: { params: ActionParams, body: OrderEditItemUpdate, response: Preview } },
    async (request) => {
      await m.orderEdit.updateAddedItem(await editOf(request), request.params.action_id, request.body);
      return preview(request.params.id);
    },
  );

  app.delete(
    "/draft-orders/:id/edit/items/:action_id",
    { schema: { params: ActionParams, response: Preview } },
    async (request) => {
      await m.orderEdit.removeAction(await editOf(request), request.params.action_id, "ITEM_ADD");
      return preview(request.params.id);
    },
  );

  app.post(
    "/draft-orders/:id/edit/shipping-methods",
    { config: draftCurrency, schema: { params: IdParams, body: OrderEditShippingAdd, response: Preview } },
    async (request) => {
      await addOrderEditShipping(m, await editOf(request), request.body);
      return preview(request.params.id);
    },
  );

  app.post(
    "/draft-orders/:id/edit/shipping-methods/:action_id",
    { config: draftCurrency, schema: { params: ActionParams, body: DraftEditShippingUpdate, response: Preview } },
    async (request) => {
      await updateDraftEditShipping(m, request.params.id, request.params.action_id, request.body);
      return preview(request.params.id);
    },
  );

  app.delete(
    "/draft-orders/:id/edit/shipping-methods/:action_id",
    { schema: { params: ActionParams, response: Preview } },
    async (request) => {
      await m.orderEdit.removeAction(await editOf(request), request.params.action_id, "SHIPPING_ADD");
      return preview(request.params.id);
    },
  );

  // A shipping method the draft already has, taken off by its edit.
  app.delete(
    "/draft-orders/:id/edit/shipping-methods/method/:method_id",
    { schema: { params: ChildParams("method_id"), response: Preview } },
    async (request) => {
      await m.orderEdit.removeShipping(await editOf(request), request.params.method_id);
      return preview(request.params.id);
    },
  );

  // Promotion codes on the draft, priced on what the edit leaves it (Medusa's draft promotions):
  // `POST` adds them, `DELETE` (with the same body) takes them off.
  for (const [method, write] of [
    ["POST", addDraftPromotions],
    ["DELETE", removeDraftPromotions],
  ] as const)
    app.route({
      method,
      url: "/draft-orders/:id/edit/promotions",
      schema: { params: IdParams, body: PromoCodes, response: Preview },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        await write(m, id, await activeDraftEdit(m, id), (request.body as PromoCodes).promo_codes);
        return preview(id);
      },
    });

  app.post(
    "/draft-orders/:id/edit/request",
    { schema: { params: IdParams, body: NoFields, response: Preview } },
    async (request) => {
      await m.orderEdit.request(await editOf(request), actor(request));
      return preview(request.params.id);
    },
  );

  app.post(
    "/draft-orders/:id/edit/confirm",
    { schema: { params: IdParams, body: NoFields, response: Preview } },
    async (request) => {
      await confirmDraftOrderEdit(m, request.params.id, actor(request));
      return preview(request.params.id);
    },
  );
}
