import { Type } from "@sinclair/typebox";
import { orderCurrency as orderCurrencyOf } from "../../orders/currency";
import { Extend } from "@kasse/db";
import {
  addOrderEditItems,
  addOrderEditShipping,
  confirmOrderEditWorkflow,
  updateOrderEditItem,
  updateOrderEditShipping,
} from "@kasse/flows";
import {
  OrderChangeUpdate,
  OrderEditBegin,
  OrderEditItemsAdd,
  OrderEditItemUpdate,
  OrderEditRequest,
  OrderEditShippingAdd,
  OrderEditShippingUpdate,
  OrderVersionChangeView,
  type OrderVersionChange,
} from "@kasse/modules/order";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { Answer, ChildParams, Deleted, IdParams, deleted, NoFields } from "../../http/schemas";
import { orderPreview, OrderPreviewView } from "../../orders/preview";

const ActionParams = ChildParams("action_id");
const ItemParams = ChildParams("item_id");
/** Medusa's answer to each step of an edit: the order as confirming the edit would leave it. */
const Preview = Answer("order_preview", OrderPreviewView);
// The order's currency beside the change: Medusa's dialect reads the actions' amounts in it.
const ChangeAnswer = Answer("order_change", Extend(OrderVersionChangeView, { currency_code: Type.String() }));

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/**
 * Medusa's order edits (docs/orders.md "Order edits"): begun on an open order, put together
 * action by action (lines added, existing lines' quantities and prices, shipping methods added),
 * requested, then confirmed as the order's next version (the confirm-order-edit saga) or canceled.
 * After begin, the path names the order (as Medusa's): the route works on its active edit.
 * Each step answers the order preview; nothing on the order, in stock or in payments moves
 * before the confirmation.
 */
export default async function orderEdits(app: App): Promise<void> {
  const edits = app.modules.orderEdit;
  const preview = async (change: Pick<OrderVersionChange, "order_id">) => ({
    order_preview: await orderPreview(app.modules, change.order_id),
  });
  // The path names the order (as in Medusa): its active edit is the one the route works on.
  const edit = (request: { params: { id: string } }) => edits.activeEditId(request.params.id);
  // Medusa's dialect reads a body's amounts (`unit_price`, `custom_amount`) in the order's currency.
  const orderCurrency = orderCurrencyOf(app.modules);

  app.post(
    "/order-edits",
    { schema: { body: OrderEditBegin, response: Answer("order_change", OrderVersionChangeView) } },
    async (request) => ({ order_change: await edits.begin(request.body, actor(request)) }),
  );

  app.post(
    "/order-edits/:id/items",
    { config: orderCurrency, schema: { params: IdParams, body: OrderEditItemsAdd, response: Preview } },
    async (request) => preview(await addOrderEditItems(app.modules, await edit(request), request.body)),
  );

  // An existing line of the order: its new quantity (0 takes every unit off) and price.
  app.post(
    "/order-edits/:id/items/item/:item_id",
    { config: orderCurrency, schema: { params: ItemParams, body: OrderEditItemUpdate, response: Preview } },
    async (request) =>
      preview(await updateOrderEditItem(app.modules, await edit(request), request.params.item_id, request.body)),
  );

  // A line the edit added, by its ITEM_ADD action.
  app.post(
    "/order-edits/:id/items/:action_id",
    { config: orderCurrency, schema: { params: ActionParams, body: OrderEditItemUpdate, response: Preview } },
    async (request) =>
      preview(await edits.updateAddedItem(await edit(request), request.params.action_id, request.body)),
  );

  app.delete(
    "/order-edits/:id/items/:action_id",
    { schema: { params: ActionParams, response: Preview } },
    async (request) => preview(await edits.removeAction(await edit(request), request.params.action_id, "ITEM_ADD")),
  );

  app.post(
    "/order-edits/:id/shipping-method",
    { config: orderCurrency, schema: { params: IdParams, body: OrderEditShippingAdd, response: Preview } },
    async (request) => preview(await addOrderEditShipping(app.modules, await edit(request), request.body)),
  );

  app.post(
    "/order-edits/:id/shipping-method/:action_id",
    { config: orderCurrency, schema: { params: ActionParams, body: OrderEditShippingUpdate, response: Preview } },
    async (request) =>
      preview(await updateOrderEditShipping(app.modules, await edit(request), request.params.action_id, request.body)),
  );

  app.delete(
    "/order-edits/:id/shipping-method/:action_id",
    { schema: { params: ActionParams, response: Preview } },
    async (request) => preview(await edits.removeAction(await edit(request), request.params.action_id, "SHIPPING_ADD")),
  );

  app.post(
    "/order-edits/:id/request",
    { schema: { params: IdParams, body: OrderEditRequest, response: Preview } },
    async (request) => preview(await edits.request(await edit(request), actor(request), request.body)),
  );

  // Medusa's dashboard saves the edit form's note here before it requests the edit.
  app.post(
    "/order-changes/:id",
    { schema: { params: IdParams, body: OrderChangeUpdate, response: ChangeAnswer } },
    async (request) => {
      const change = await edits.update(request.params.id, request.body);
      const { currency_code } = await app.modules.order.retrieve(change.order_id);
      return { order_change: { ...change, currency_code } };
    },
  );

  app.post(
    "/order-edits/:id/confirm",
    { schema: { params: IdParams, body: NoFields, response: Preview } },
    async (request) => {
      const confirmed = await app.infra.engine.execute(confirmOrderEditWorkflow, {
        order_edit_id: await edit(request),
        actor: actor(request),
      });
      return preview({ order_id: confirmed.order_id });
    },
  );

  app.delete("/order-edits/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await edits.cancel(await edit(request), actor(request));
    return deleted(request.params.id, "order-edit");
  });
}
