// The values two jsonb columns hold (a shipping option's rules, a fulfillment's labels), in typebox: the
// tables type their columns with them and the request schemas take them, so neither file imports the other.
import { Type, type Static } from "@sinclair/typebox";
import { Code, Strict, Url } from "@kasse/core";

export const ShippingOptionRule = Strict({
  attribute: Code({ minLength: 1 }),
  operator: Type.Union(["eq", "ne", "in", "gt", "gte", "lt", "lte", "nin"].map((o) => Type.Literal(o))),
  value: Type.Union([Code(), Type.Array(Code(), { maxItems: 1000 })]),
});
export type ShippingOptionRule = Static<typeof ShippingOptionRule>;
/** One shipping label of a shipment (Medusa's create-shipment `labels`). */
export const FulfillmentLabelInput = Strict({
  tracking_number: Code({ minLength: 1 }),
  tracking_url: Url(),
  label_url: Url(),
});
export type FulfillmentLabelInput = Static<typeof FulfillmentLabelInput>;
