import {
  bigint,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type IndexBuilderOn,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
  type PgTableWithColumns,
  type ReferenceConfig,
} from "drizzle-orm/pg-core";
import { sql, type BuildColumns, type BuildExtraConfigColumns } from "drizzle-orm";
import { registerFileUrlColumn, registerMoneyColumn } from "./money-columns";

/** A point in time: `timestamp with time zone`, read as a `Date`. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** `created_at`: when the row was inserted (the database sets it). */
export const createdAt = () => timestamptz("created_at").notNull().defaultNow();

/** `created_at`, `updated_at` (set on update by `$onUpdate`), `deleted_at` for soft delete. */
export const timestamps = () => ({
  created_at: createdAt(),
  updated_at: timestamptz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  deleted_at: timestamptz("deleted_at"),
});

/**
 * The id of the row this one belongs to or links: a required text column with a foreign key to
 * `target`; `{ onDelete: "cascade" }` when the row goes with it.
 * @example
 * cart_id: parentId("cart_id", () => cart.id, { onDelete: "cascade" }),
 */
export const parentId = (name: string, target: ReferenceConfig["ref"], actions?: ReferenceConfig["actions"]) =>
  text(name).notNull().references(target, actions);

/**
 * A unique index over the live rows only (`where deleted_at is null`), so a soft-deleted row's
 * values (a handle, a code, a name) can be taken again; `also`, a condition on the row, narrows it
 * further (`"is_default"`: one live default). Used as `uniqueIndex`: `.on(...columns)`.
 */
export const liveUniqueIndex = (name: string, also?: string) => ({
  on: (...columns: Parameters<IndexBuilderOn["on"]>) =>
    uniqueIndex(name)
      .on(...columns)
      .where(also ? sql.raw(`${also} and deleted_at is null`) : sql`deleted_at is null`),
});

/**
 * One plain index per entry, named `<table>_<key>_idx` on the entry's column: the columns a list
 * filters or sorts by. Used in a table's extra config, spread among its other indexes.
 * @example
 * (t) => [liveUniqueIndex("region_name_uq").on(t.name), ...indexes("region", { currency_code: t.currency_code, created_at: t.created_at })]
 */
export const indexes = (table: string, columns: Record<string, Parameters<IndexBuilderOn["on"]>[0]>) =>
  Object.entries(columns).map(([key, column]) => index(`${table}_${key}_idx`).on(column));

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
): PgTableWithColumns<{ name: N; schema: undefined; columns: BuildColumns<N, EntityColumns<C>, "pg">; dialect: "pg" }> {
  const all: EntityColumns<C> = { id: entityId(), ...columns, ...timestamps() };
  return pgTable<N, EntityColumns<C>>(name, all, extraConfig);
}

/**
 * A money amount in integer minor units (bigint in the database, a safe integer in JS). Views
 * derived from the table (`RowView`) mark it as `MoneyView`, so Medusa's dialect converts it.
 */
export const money = (name: string) => registerMoneyColumn(bigint(name, { mode: "number" }));

/**
 * A picture's URL (a thumbnail, an image): text holding an absolute URL or a reference to one of
 * the store's files (`/static/uploads/{key}`). Views derived from the table (`RowView`) mark it as
 * `FileUrlView`, so answers carry the reference's absolute URL at the current address.
 */
export const fileUrl = (name: string) => registerFileUrlColumn(text(name));

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
