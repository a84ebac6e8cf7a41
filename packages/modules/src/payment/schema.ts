import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "@kasse/db";
import { metadata, money, entityTable, parentId, liveUniqueIndex, timestamptz, createdAt } from "@kasse/db";

/** Medusa's payment collection statuses (a superset of the contract's `not_paid`, `authorized`). */
export type PaymentCollectionStatus =
  "not_paid" | "awaiting" | "authorized" | "partially_authorized" | "canceled" | "failed" | "completed";
export type PaymentSessionStatus = "pending" | "requires_more" | "authorized" | "error" | "canceled";

/** What one checkout pays: the cart's total, and how much of it is authorized, captured, refunded. */
export const paymentCollection = entityTable(
  "payment_collection",
  {
    cart_id: text("cart_id"),
    region_id: text("region_id"),
    currency_code: text("currency_code").notNull(),
    amount: money("amount").notNull(),
    authorized_amount: money("authorized_amount").notNull().default(0),
    captured_amount: money("captured_amount").notNull().default(0),
    refunded_amount: money("refunded_amount").notNull().default(0),
    status: text("status").$type<PaymentCollectionStatus>().notNull().default("not_paid"),
    completed_at: timestamptz("completed_at"),
    metadata: metadata(),
  },
  (t) => [
    // One live collection per cart: a second create returns the first.
    liveUniqueIndex("payment_collection_cart_uq", "cart_id is not null").on(t.cart_id),
  ],
);

/** A provider's session: the data the client needs to pay, and whether it authorized. */
export const paymentSession = entityTable(
  "payment_session",
  {
    payment_collection_id: parentId("payment_collection_id", () => paymentCollection.id, { onDelete: "cascade" }),
    provider_id: text("provider_id").notNull(),
    currency_code: text("currency_code").notNull(),
    amount: money("amount").notNull(),
    status: text("status").$type<PaymentSessionStatus>().notNull().default("pending"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    context: jsonb("context").$type<Record<string, unknown>>(),
    authorized_at: timestamptz("authorized_at"),
  },
  (t) => [index("payment_session_collection_idx").on(t.payment_collection_id)],
);

/** An authorized payment, captured and refunded in parts. */
export const payment = entityTable(
  "payment",
  {
    payment_collection_id: parentId("payment_collection_id", () => paymentCollection.id, { onDelete: "cascade" }),
    payment_session_id: text("payment_session_id").notNull(),
    provider_id: text("provider_id").notNull(),
    currency_code: text("currency_code").notNull(),
    amount: money("amount").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    captured_at: timestamptz("captured_at"),
    canceled_at: timestamptz("canceled_at"),
  },
  (t) => [
    index("payment_collection_idx").on(t.payment_collection_id),
    uniqueIndex("payment_session_uq").on(t.payment_session_id),
  ],
);

export const capture = pgTable(
  "payment_capture",
  {
    id: text("id").primaryKey(),
    payment_id: parentId("payment_id", () => payment.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    created_by: text("created_by"),
    created_at: createdAt(),
  },
  (t) => [index("payment_capture_payment_idx").on(t.payment_id)],
);

/** Why a merchant refunds (Medusa's refund reasons): named once, chosen on each refund. */
export const refundReason = entityTable(
  "refund_reason",
  {
    label: text("label").notNull(),
    code: text("code").notNull(),
    description: text("description"),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("refund_reason_code_uq").on(t.code), index("refund_reason_created_at_idx").on(t.created_at)],
);

export const refund = pgTable(
  "payment_refund",
  {
    id: text("id").primaryKey(),
    payment_id: parentId("payment_id", () => payment.id, { onDelete: "cascade" }),
    amount: money("amount").notNull(),
    note: text("note"),
    /** The refund reason the merchant chose, if any (a soft-deleted reason stays named by the refunds that chose it). */
    refund_reason_id: text("refund_reason_id").references(() => refundReason.id),
    created_by: text("created_by"),
    created_at: createdAt(),
  },
  (t) => [index("payment_refund_payment_idx").on(t.payment_id)],
);

/**
 * A provider's webhook event, recorded once by its id (a repeated delivery finds it and changes
 * nothing) with what it means, and when the worker processed it (execution `webhook:<event_id>`).
 */
export const paymentWebhookEvent = pgTable(
  "payment_webhook_event",
  {
    provider_id: text("provider_id").notNull(),
    event_id: text("event_id").notNull(),
    /** `authorized`, `captured`, `failed`, `canceled` or `refunded` (see the provider's `WebhookOutcome`). */
    action: text("action").notNull(),
    session_id: text("session_id").notNull(),
    /** The provider's id of the payment (a Stripe PaymentIntent). */
    reference: text("reference").notNull(),
    amount: money("amount").notNull(),
    created_at: createdAt(),
    processed_at: timestamptz("processed_at"),
    /** What processing it did, in words (an order placed, a refund recorded, nothing and why). */
    outcome: text("outcome"),
  },
  (t) => [primaryKey({ columns: [t.provider_id, t.event_id] })],
);
export type PaymentCollectionRow = typeof paymentCollection.$inferSelect;
export type PaymentWebhookEventRow = typeof paymentWebhookEvent.$inferSelect;
export type PaymentSessionRow = typeof paymentSession.$inferSelect;
export type PaymentRow = typeof payment.$inferSelect;
export type CaptureRow = typeof capture.$inferSelect;
export type RefundRow = typeof refund.$inferSelect;
export type RefundReasonRow = typeof refundReason.$inferSelect;
