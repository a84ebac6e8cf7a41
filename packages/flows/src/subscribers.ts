import { errors } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { type Engine } from "@kasse/workflows";
import { step, workflow } from "./definitions";
import type { EventRow, EventSubscriber } from "@kasse/modules/event";
import type { NotificationInput } from "@kasse/modules/notification";
import { lineShare, returnCreditOf, type Order, type OrderReturn } from "@kasse/modules/order";
import { sendNotificationWorkflow } from "./send-notification";
import { orderBalance } from "./order-change-plan";
import { paidSoFar } from "./order-edits";

/** What a subscriber may use: the process's modules and its engine (its steps get the configured notification service). */
export interface SubscriberDeps {
  modules: Modules;
  engine: Pick<Engine, "execute">;
}

/** A subscriber as registered here: bound to its dependencies by the dispatcher's process. */
export interface SubscriberDefinition {
  name: string;
  events: readonly string[];
  handle(event: EventRow, deps: SubscriberDeps): Promise<void>;
}

/** Writes the message to the outbox with the process's notification service (`ctx.modules.notification`). */
const createNotificationStep = step("create-notification", {
  invoke: async (input: { message: NotificationInput }, ctx) => {
    return { output: { id: (await ctx.modules.notification.create(input.message)).id } };
  },
});

/**
 * Writes a subscriber's message for an event to the outbox, once: run again for the same event
 * (at-least-once dispatch), the execution's idempotency key (event, subscriber) answers the same message.
 */
export const queueEventNotificationWorkflow = workflow(
  "queue-event-notification",
  (input: { message: NotificationInput }, ctx) => ctx.run(createNotificationStep, input),
);

/**
 * The message of one (event, subscriber), then its delivery. When the provider is down (an SMTP
 * server refusing connections) the message stays `pending` and the subscriber fails, so the
 * dispatcher runs it again on its retry schedule (5 s, 5 min, …): the shopper's mail is delayed,
 * not lost, and sent once (a delivered message is not sent again).
 */
async function notify(
  deps: SubscriberDeps,
  event: EventRow,
  subscriber: string,
  message: NotificationInput,
): Promise<void> {
  const { id } = await deps.engine.execute(
    queueEventNotificationWorkflow,
    { message },
    { idempotencyKey: `${event.id}:${subscriber}` },
  );
  await deps.engine.execute(
    sendNotificationWorkflow,
    { notification_id: id, keep_pending: true },
    { idempotencyKey: `notification:${id}`, freshAfterFailure: true },
  );
}

/** An order as the shopper's messages show it: lines, money in its currency, addresses. */
function orderData(order: Order): Record<string, unknown> {
  return {
    order_id: order.id,
    display_id: order.display_id,
    currency_code: order.currency_code,
    items: order.items.map((i) => ({
      title: i.product_title ?? i.title,
      variant_title: i.variant_title,
      quantity: i.quantity,
      unit_price: i.unit_price,
      total: i.total,
    })),
    item_subtotal: order.item_subtotal,
    shipping_subtotal: order.shipping_subtotal,
    discount_total: order.discount_total,
    tax_total: order.tax_total,
    total: order.total,
    shipping_address: order.shipping_address,
    billing_address: order.billing_address,
  };
}

/** The order an event is about; null when it is gone or has no email (nobody to write to). */
async function orderToNotify(deps: SubscriberDeps, orderId: unknown): Promise<Order | null> {
  if (typeof orderId !== "string") throw errors.unexpectedState("The event names no order");
  const order = await deps.modules.order.retrieve(orderId).catch(() => null);
  return order?.email ? order : null;
}

const email = (order: Order, template: string, data: Record<string, unknown>): NotificationInput => ({
  to: order.email!,
  channel: "email",
  template,
  data,
  resource_type: "order",
});

/** What a message adds to the order's summary for its event: read from the event, the order and the modules. */
type ExtraData = (
  data: EventRow["data"],
  order: Order,
  deps: SubscriberDeps,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * Mails the order's summary with `template` when `eventName` is released: the order its data names
 * by `orderKey` (default `id`), with what `extra` adds; not when the event says `no_notification`.
 */
const orderEmailSubscriber = (
  name: string,
  eventName: string,
  template: string,
  options: { orderKey?: string; extra?: ExtraData } = {},
): SubscriberDefinition => ({
  name,
  events: [eventName],
  async handle(event, deps) {
    if (event.data.no_notification === true) return;
    const order = await orderToNotify(deps, event.data[options.orderKey ?? "id"]);
    if (order)
      await notify(
        deps,
        event,
        name,
        email(order, template, { ...orderData(order), ...(await options.extra?.(event.data, order, deps)) }),
      );
  },
});

/** Units of the order's lines as a message lists them: each line's title and what those units are worth. */
function unitsOf(order: Order, units: Array<{ line_item_id: string; quantity: number }>) {
  return units.flatMap(({ line_item_id, quantity }) => {
    const line = order.items.find((i) => i.id === line_item_id);
    if (!line || quantity <= 0) return [];
    const worth = lineShare(line, quantity);
    return [{ title: line.product_title ?? line.title, variant_title: line.variant_title, quantity, total: worth }];
  });
}

/** What the shopper still owes on the order after a change (negative: what is due back to them). */
async function pendingDifference(deps: SubscriberDeps, order: Order): Promise<number> {
  return orderBalance(order.total, await paidSoFar(deps.modules, order)).pending_difference;
}

/** The return an event names; null when it is gone (an exchange's empty return request is dropped). */
const returnOf = (deps: SubscriberDeps, id: unknown) =>
  typeof id === "string" ? deps.modules.orderReturn.retrieve(id).catch(() => null) : Promise.resolve(null);

/** A return's units of each line: those asked back, or those received so far. */
const returnUnits = (ret: OrderReturn | null, count: "quantity" | "received_quantity") =>
  (ret?.items ?? []).map((i) => ({ line_item_id: i.line_item_id, quantity: i[count] }));

/** An exchange's or a claim's message: what comes back, what is sent out, a claim's claimed units, and the difference. */
const claimExchangeData =
  (kind: "exchange" | "claim", idKey: string): ExtraData =>
  async (data, order, deps) => {
    const found = await deps.modules.claimExchange.retrieve(kind, String(data[idKey]));
    const inbound = await returnOf(deps, found.return_id);
    const claimed = "claim_items" in found ? (found.claim_items ?? []) : [];
    return {
      returned: unitsOf(order, returnUnits(inbound, "quantity")),
      sent: unitsOf(
        order,
        found.additional_items.map((i) => ({ line_item_id: i.item_id, quantity: i.quantity })),
      ),
      claimed: unitsOf(
        order,
        claimed.map((i) => ({ line_item_id: i.item_id, quantity: i.quantity })),
      ),
      claim_type: "type" in found ? found.type : null,
      refund_amount: "refund_amount" in found ? found.refund_amount : null,
      difference_due: found.difference_due,
      pending_difference: await pendingDifference(deps, order),
    };
  };

const orderConfirmationSubscriber = orderEmailSubscriber("order-confirmation", "order.placed", "order.placed");

const shipmentNoticeSubscriber: SubscriberDefinition = {
  name: "shipment-notice",
  events: ["shipment.created"],
  async handle(event, deps) {
    if (event.data.no_notification === true) return;
    const order = await orderToNotify(deps, event.data.order_id);
    if (!order) return;
    const shipped = await deps.modules.fulfillmentRecord.retrieve(String(event.data.id));
    const quantities = new Map(shipped.items.map((i) => [i.line_item_id, i.quantity]));
    const data = orderData(order);
    const items = order.items
      .filter((i) => quantities.has(i.id))
      .map((i) => ({
        title: i.product_title ?? i.title,
        variant_title: i.variant_title,
        quantity: quantities.get(i.id),
        unit_price: i.unit_price,
        total: i.unit_price * (quantities.get(i.id) ?? 0),
      }));
    const tracking = shipped.labels.map((l) => ({ number: l.tracking_number, url: l.tracking_url }));
    await notify(
      deps,
      event,
      this.name,
      email(order, "order.shipped", { ...data, items, fulfillment_id: shipped.id, tracking }),
    );
  },
};

const editNoticeSubscriber = orderEmailSubscriber("edit-notice", "order-edit.confirmed", "order.edited", {
  orderKey: "order_id",
  extra: (data) => ({ pending_difference: data.pending_difference }),
});

const exchangeNoticeSubscriber = orderEmailSubscriber("exchange-notice", "order.exchange_created", "order.exchange", {
  orderKey: "order_id",
  extra: claimExchangeData("exchange", "exchange_id"),
});

const claimNoticeSubscriber = orderEmailSubscriber("claim-notice", "order.claim_created", "order.claim", {
  orderKey: "order_id",
  extra: claimExchangeData("claim", "claim_id"),
});

/** A return's message (`template` named as its event): the order, with what `describe` reads from the return the event names. */
const returnEmailSubscriber = (
  name: string,
  eventName: string,
  describe: (ret: OrderReturn | null, order: Order, deps: SubscriberDeps) => Promise<Record<string, unknown>>,
) =>
  orderEmailSubscriber(name, eventName, eventName, {
    orderKey: "order_id",
    extra: async (data, order, deps) => describe(await returnOf(deps, data.return_id), order, deps),
  });

// What to send back, its return shipping, and what the units take off once every one is received.
const returnRequestNoticeSubscriber = returnEmailSubscriber(
  "return-request-notice",
  "order.return_requested",
  async (ret, order) => {
    const asked = returnUnits(ret, "quantity");
    const shipping = ret?.shipping ?? null;
    const whole = asked.map((i) => ({ line_item_id: i.line_item_id, received_quantity: i.quantity }));
    return {
      returned: unitsOf(order, asked),
      return_shipping: shipping?.amount ?? 0,
      refund_on_receipt: returnCreditOf(order.items, {
        shipping,
        exchange_id: ret?.exchange_id ?? null,
        claim_id: ret?.claim_id ?? null,
        items: whole,
      }),
    };
  },
);

// Every unit of the return received so far, and where the order's money stands after the receipt's refund.
const returnReceiptNoticeSubscriber = returnEmailSubscriber(
  "return-receipt-notice",
  "order.return_received",
  async (ret, order, deps) => ({
    received: unitsOf(order, returnUnits(ret, "received_quantity")),
    pending_difference: await pendingDifference(deps, order),
  }),
);

const cancellationNoticeSubscriber = orderEmailSubscriber("cancellation-notice", "order.canceled", "order.canceled");

const refundNoticeSubscriber: SubscriberDefinition = {
  name: "refund-notice",
  events: ["payment.refunded"],
  async handle(event, deps) {
    if (!event.data.order_id) return;
    const order = await orderToNotify(deps, event.data.order_id);
    if (order)
      await notify(
        deps,
        event,
        this.name,
        email(order, "order.refunded", {
          order_id: order.id,
          display_id: order.display_id,
          amount: event.data.amount,
          currency_code: event.data.currency_code,
          payment_id: event.data.id,
        }),
      );
  },
};

/** Every in-process subscriber, in the order they run for an event. Add one here (one registry, like `allWorkflows`). */
export const allSubscribers: readonly SubscriberDefinition[] = [
  orderConfirmationSubscriber,
  shipmentNoticeSubscriber,
  editNoticeSubscriber,
  exchangeNoticeSubscriber,
  claimNoticeSubscriber,
  returnRequestNoticeSubscriber,
  returnReceiptNoticeSubscriber,
  cancellationNoticeSubscriber,
  refundNoticeSubscriber,
];

/** The subscribers bound to a process's dependencies, for `createEventDispatcher`. */
export function bindSubscribers(definitions: readonly SubscriberDefinition[], deps: SubscriberDeps): EventSubscriber[] {
  return definitions.map((d) => ({ name: d.name, events: d.events, handle: (event) => d.handle(event, deps) }));
}
