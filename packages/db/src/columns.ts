import {
  bigint,
  jsonb,
  pgTable,
  text,
  timestamp,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
} from "drizzle-orm/pg-core";
import type { BuildExtraConfigColumns } from "drizzle-orm";
import { registerMoneyColumn } from "./money";

/** `created_at`, `updated_at` (set on update by `$onUpdate`), `deleted_at` for soft delete. */
export const timestamps = () => ({
  created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  deleted_at: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
});

/** The columns every entity table has around its own: a text `id` first, the {@link timestamps} last. */
type EntityColumns<C extends Record<string, PgColumnBuilderBase>> = Flat<
  { id: ReturnType<typeof entityId> } & C & ReturnType<typeof timestamps>
>;
type Flat<T> = { [K in keyof T]: T[K] };
const entityId = () => text("id").primaryKey();

/**
 * A table of a Kasse entity: `id` (text primary key), the given `columns`, then `created_at`,
 * `updated_at` and `deleted_at` (soft delete), in that order; `extraConfig` as `pgTable` takes it.
 * @example
 * export const tag = entityTable("tag", { value: text("value").notNull() }, (t) => [index("tag_value_idx").on(t.value)]);
 */
export function entityTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  extraConfig?: (self: BuildExtraConfigColumns<N, EntityColumns<C>, "pg">) => PgTableExtraConfigValue[],
) {
  const all: EntityColumns<C> = { id: entityId(), ...columns, ...timestamps() };
  return pgTable<N, EntityColumns<C>>(name, all, extraConfig);
}

/**
 * A money amount in integer minor units (bigint in the database, a safe integer in JS). Views
 * derived from the table (`RowView`) mark it as `MoneyView`, so Medusa's dialect converts it.
 */
export const money = (name: string) => registerMoneyColumn(bigint(name, { mode: "number" }));

/** Free key-value pairs. */
export const metadata = () => jsonb("metadata").$type<Record<string, unknown>>();

/**
 * The totals a cart stores and an order copies (integer minor units, 0 by default), so reads
 * never recompute them: items, shipping, and the whole, each as subtotal/tax/discount/total.
 */
export const storedTotals = () => ({
  item_subtotal: money("item_subtotal").notNull().default(0),
  item_tax_total: money("item_tax_total").notNull().default(0),
  item_discount_total: money("item_discount_total").notNull().default(0),
  item_total: money("item_total").notNull().default(0),
  shipping_subtotal: money("shipping_subtotal").notNull().default(0),
  shipping_tax_total: money("shipping_tax_total").notNull().default(0),
  shipping_discount_total: money("shipping_discount_total").notNull().default(0),
  shipping_total: money("shipping_total").notNull().default(0),
  subtotal: money("subtotal").notNull().default(0),
  discount_total: money("discount_total").notNull().default(0),
  tax_total: money("tax_total").notNull().default(0),
  total: money("total").notNull().default(0),
});
