import { Type, type Static } from "@sinclair/typebox";
import { LongText, Url, Strict } from "@kasse/core";
import { OrNull, RowView, TimestampView } from "@kasse/db";
import { webhookDelivery } from "./schema";

// ---- Requests -------------------------------------------------------------------------------

/** An event name of the catalog, or `*`. */
const EventPattern = () =>
  Type.String({ minLength: 1, maxLength: 64, pattern: "^(\\*|[a-z][a-z_-]*(\\.[a-z][a-z_-]*)+)$" });

/** Body of `POST /admin/webhooks`. */
export const WebhookCreate = Strict({
  url: Url({ minLength: 1 }),
  events: Type.Array(EventPattern(), { minItems: 1, maxItems: 100 }),
  description: Type.Optional(Type.Union([LongText(), Type.Null()])),
});
export type WebhookCreate = Static<typeof WebhookCreate>;

/** Body of `POST /admin/webhooks/{id}`: `enabled: true` re-enables a disabled endpoint. */
export const WebhookUpdate = Strict({
  ...Type.Partial(WebhookCreate).properties,
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookUpdate = Static<typeof WebhookUpdate>;

/** Filters of the outbox's list. */
export interface EventFilters {
  name?: string[];
  execution_id?: string[];
}

/** Filters of `GET /admin/webhooks`. */
export interface WebhookFilters {
  id?: string[];
  enabled?: boolean;
}

// ---- Responses ------------------------------------------------------------------------------

/** A webhook endpoint as reads show it: never its secret (strict, so it cannot leak through a new column). */
export const WebhookView = Strict({
  id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  events: Type.Optional(Type.Array(Type.String())),
  description: Type.Optional(OrNull(Type.String())),
  enabled: Type.Optional(Type.Boolean()),
  failing_since: Type.Optional(OrNull(TimestampView())),
  disabled_reason: Type.Optional(OrNull(Type.String())),
  created_at: Type.Optional(TimestampView()),
  updated_at: Type.Optional(TimestampView()),
});

/** The answer of create and rotate-secret: the only time the secret (`whsec_…`) is shown. */
export const WebhookWithSecretView = Strict({
  ...WebhookView.properties,
  secret: Type.String({ description: "The signing secret, shown only in this answer" }),
});

/** One delivery attempt. */
export const WebhookDeliveryView = RowView(webhookDelivery);

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type DeliveryStatus, type EventRow, type WebhookDeliveryRow, type WebhookRow } from "./schema";
