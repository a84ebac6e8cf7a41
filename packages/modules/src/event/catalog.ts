import { Strict } from "@kasse/core";
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

// The event catalog, written once: every event Kasse emits, its version and its payload. Names
// follow Medusa's. A payload carries ids and the facts a consumer needs, never whole records
// (fetch those through the API) and never a secret.

const S = (description: string) => Type.String({ description });
const Ids = (description: string) => Type.Array(Type.String(), { description });
const NullableS = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Int = (description: string) => Type.Integer({ description });
/** An event in its first version: what it means, and the properties of its payload (a strict object). */
const v1 = <P extends Record<string, TSchema>>(description: string, properties: P) => ({
  version: 1 as const,
  description,
  data: Strict(properties),
});

const orderRef = { id: S("The order id") };
const ofOrder = { order_id: S("The order") };
/** A payment's money moved: what moved now, in minor units (`what`: captured or refunded). */
const paymentMoved = (what: string) => ({
  id: S("The payment"),
  order_id: NullableS("Its order"),
  amount: Int(`The amount ${what} now, minor units`),
  currency_code: S("The currency"),
});
/** Medusa's `no_notification`: the change is recorded, the shopper is not mailed. */
const silent = { no_notification: Type.Boolean({ description: "The merchant asked that the customer not be told" }) };

/** Every event name, its payload schema and version. */
export const eventCatalog = {
  "order.placed": v1(
    "A cart was completed into an order (the payment is authorized and the stock reserved), or a draft order was converted (the stock reserved, a payment collection for its total awaiting payment).",
    {
      ...orderRef,
      display_id: Int("The order's display number"),
      cart_id: NullableS("The completed cart"),
      customer_id: NullableS("The customer, null for a guest"),
      email: NullableS("The email the confirmation goes to"),
      currency_code: S("The order's currency"),
      total: Int("The order total in minor units of the currency"),
      item_count: Int("The number of units ordered"),
    },
  ),
  "order.canceled": v1("An order was canceled (its payments voided or refunded, its reservations released).", orderRef),
  "order.updated": v1(
    "An order's lines, shipping or totals changed (an order edit was confirmed as its next version).",
    orderRef,
  ),
  "order-edit.confirmed": v1("An order edit was confirmed: the order moved to its next version.", {
    ...ofOrder,
    order_change_id: S("The confirmed order change"),
    pending_difference: Type.Integer({
      description: "What the customer owes after the edit (minor units; negative: due back to them)",
    }),
    ...silent,
  }),
  "order.exchange_created": v1(
    "An exchange was confirmed: its outbound lines are on the order's next version, its inbound units a requested return.",
    { ...ofOrder, exchange_id: S("The exchange"), ...silent },
  ),
  "order.claim_created": v1(
    "A claim was confirmed: the order moved to its next version (replacement lines, the claimed value off).",
    { ...ofOrder, claim_id: S("The claim"), ...silent },
  ),
  "order.completed": v1("An order was marked completed.", orderRef),
  "order.fulfillment_created": v1("Items of an order were fulfilled.", {
    ...ofOrder,
    fulfillment_id: S("The new fulfillment"),
  }),
  "order.fulfillment_canceled": v1("A fulfillment of an order was canceled.", {
    ...ofOrder,
    fulfillment_id: S("The canceled fulfillment"),
  }),
  "shipment.created": v1("A fulfillment was shipped.", {
    id: S("The fulfillment"),
    ...ofOrder,
    tracking_numbers: Ids("The tracking numbers of its labels"),
    no_notification: Type.Boolean({
      description: "The merchant shipped it without telling the customer (Medusa's no_notification)",
    }),
  }),
  "delivery.created": v1("A fulfillment was delivered.", { id: S("The fulfillment"), ...ofOrder }),
  "order.return_requested": v1("A return of an order was requested.", {
    ...ofOrder,
    return_id: S("The return"),
    ...silent,
  }),
  "order.return_received": v1("A return was received.", { ...ofOrder, return_id: S("The return"), ...silent }),
  "payment.captured": v1("A payment was captured (in part or in full).", paymentMoved("captured")),
  "payment.refunded": v1("A payment was refunded (in part or in full).", paymentMoved("refunded")),
  "customer.created": v1("A customer was created.", {
    id: S("The customer"),
    email: S("Their email"),
    has_account: Type.Boolean({ description: "Whether they registered" }),
  }),
  "customer.updated": v1("A customer's details changed.", {
    id: S("The customer"),
    fields: Ids("The fields that changed"),
  }),
  "product.created": v1("A product was created.", { id: S("The product") }),
  "product.updated": v1("A product, its variants, options or prices changed.", { id: S("The product") }),
  "product.deleted": v1("A product was deleted.", { id: S("The product") }),
  "inventory-item.updated": v1(
    "The stock on hand of an inventory item at a location changed: a fulfillment, a received return, an adjustment, an admin's level write.",
    {
      id: S("The inventory item"),
      location_id: S("The stock location"),
      stocked_quantity: Int("Units on hand"),
      reserved_quantity: Int("Units reserved"),
    },
  ),
  "cart.created": v1("A cart was created.", {
    id: S("The cart"),
    currency_code: S("Its currency"),
    customer_id: NullableS("Its customer"),
  }),
  "cart.updated": v1("A cart changed (items, addresses, methods, promotions, customer).", { id: S("The cart") }),
  "auth.password_reset": v1(
    "A password reset was requested; the token itself is only ever in the message to the owner.",
    { entity_id: S("The email the reset is for"), actor_type: S("customer or user") },
  ),
} as const satisfies Record<string, { version: number; description: string; data: TObject }>;

export type EventName = keyof typeof eventCatalog;
export type EventData<N extends EventName> = Static<(typeof eventCatalog)[N]["data"]>;

/** True when `name` is in the catalog. */
export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventCatalog, name);
}

/** The problems of `data` against its schema (empty when it matches); an unknown name is one. */
export function eventProblems(name: string, data: unknown): string[] {
  if (!isEventName(name)) return [`'${name}' is not in the event catalog`];
  return [...Value.Errors(eventCatalog[name].data, data)].map((e) => `${e.path || "/"}: ${e.message}`);
}

/** Every payload schema with its name, for docs/events.md and the OpenAPI document's `webhooks`. */
export function catalogEntries(): Array<{ name: EventName; version: number; description: string; data: TObject }> {
  return (Object.keys(eventCatalog) as EventName[]).map((name) => ({ name, ...eventCatalog[name] }));
}

/**
 * The OpenAPI 3.1 `webhooks` section: for each event, the signed `POST` an endpoint receives
 * (Standard Webhooks: `{id, type, timestamp, data}` and the `webhook-*` headers).
 */
export function openApiWebhooks(): Record<string, unknown> {
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    schema: { type: "string" },
    description,
  });
  return Object.fromEntries(
    catalogEntries().map(({ name, version, description, data }) => [
      name,
      {
        post: {
          summary: name,
          description: `${description} Payload version ${version}. Signed as Standard Webhooks: verify \`webhook-signature\` before trusting the body (docs/events.md).`,
          operationId: `webhook_${name.replace(/[^a-z]+/g, "_")}`,
          parameters: [
            header("webhook-id", "The event id: the same on every retry of this event, to deduplicate"),
            header("webhook-timestamp", "Unix seconds when this attempt was signed"),
            header(
              "webhook-signature",
              "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint secret",
            ),
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["id", "type", "timestamp", "data"],
                  additionalProperties: false,
                  properties: {
                    id: { type: "string", description: "The event id (`evt_…`)" },
                    type: { type: "string", const: name },
                    timestamp: { type: "string", format: "date-time", description: "When the event was committed" },
                    data,
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description:
                "Any 2xx acknowledges the event; anything else, a timeout (10 s) or a redirect is retried on the schedule",
            },
          },
        },
      },
    ]),
  );
}
