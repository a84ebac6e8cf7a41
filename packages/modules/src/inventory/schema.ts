import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { Type, type Static, type TString } from "@sinclair/typebox";
import { Code, CountryCode, Id, LongText, OptionalMetadata, Title, Url, Strict, Batch } from "@kasse/core";
import {
  metadata,
  RowView,
  entityTable,
  parentId,
  liveUniqueIndex,
  createdAt,
  indexes,
  type ListFilters,
} from "@kasse/db";

/** The text `q` searches on inventory items (sku, title, description), one trigram-indexed expression. */
export const inventorySearchText = () =>
  sql`(coalesce("sku", '') || ' ' || coalesce("title", '') || ' ' || coalesce("description", ''))`;

/** Inventory items: the stock-keeping units whose quantities are tracked per location. */
export const inventoryItem = entityTable(
  "inventory_item",
  {
    sku: text("sku"),
    title: text("title"),
    description: text("description"),
    thumbnail: text("thumbnail"),
    origin_country: text("origin_country"),
    hs_code: text("hs_code"),
    mid_code: text("mid_code"),
    material: text("material"),
    weight: doublePrecision("weight"),
    length: doublePrecision("length"),
    height: doublePrecision("height"),
    width: doublePrecision("width"),
    requires_shipping: boolean("requires_shipping").notNull().default(true),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("inventory_item_sku_uq").on(t.sku),
    ...indexes("inventory_item", { created_at: t.created_at, title: t.title }),
    index("inventory_item_search_trgm_idx").using("gin", sql`${inventorySearchText()} gin_trgm_ops`),
  ],
);

/**
 * The stock of one item at one location. `available_quantity` is computed by the row itself
 * (a stored generated column), so it can never drift from stocked and reserved. The CHECKs keep
 * every quantity non-negative; `reserved <= stocked` is NOT a constraint, because a backordered
 * reservation may exceed the stock: the guarded `UPDATE … WHERE available_quantity >= q` that
 * reserves is what refuses overselling when backorders are not allowed.
 * `location_id` is a plain id: the stock-location module owns locations.
 */
export const inventoryLevel = entityTable(
  "inventory_level",
  {
    inventory_item_id: parentId("inventory_item_id", () => inventoryItem.id),
    location_id: text("location_id").notNull(),
    stocked_quantity: integer("stocked_quantity").notNull().default(0),
    reserved_quantity: integer("reserved_quantity").notNull().default(0),
    incoming_quantity: integer("incoming_quantity").notNull().default(0),
    available_quantity: integer("available_quantity")
      .notNull()
      .generatedAlwaysAs(sql`stocked_quantity - reserved_quantity`),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("inventory_level_item_location_uq").on(t.inventory_item_id, t.location_id),
    index("inventory_level_location_idx").on(t.location_id),
    check("inventory_level_stocked_nonnegative", sql`${t.stocked_quantity} >= 0`),
    check("inventory_level_reserved_nonnegative", sql`${t.reserved_quantity} >= 0`),
    check("inventory_level_incoming_nonnegative", sql`${t.incoming_quantity} >= 0`),
  ],
);

/**
 * Reservations: quantities of an item held at a location for a line item. Each row's quantity
 * is counted in its level's `reserved_quantity`, changed in the same transaction.
 * `allow_backorder` is the variant's flag at reservation time (passed in by the flow), so a
 * later change of quantity is re-checked by the same rule.
 */
export const reservationItem = entityTable(
  "reservation_item",
  {
    inventory_item_id: parentId("inventory_item_id", () => inventoryItem.id),
    location_id: text("location_id").notNull(),
    quantity: integer("quantity").notNull(),
    line_item_id: text("line_item_id"),
    description: text("description"),
    created_by: text("created_by"),
    allow_backorder: boolean("allow_backorder").notNull().default(false),
    metadata: metadata(),
  },
  (t) => [
    ...indexes("reservation_item", {
      inventory_item: t.inventory_item_id,
      location: t.location_id,
      line_item: t.line_item_id,
      created_at: t.created_at,
    }),
    check("reservation_item_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/**
 * Which inventory items a product variant consumes, and how many of each per unit sold.
 * `variant_id` is a plain id: the product module owns variants.
 */
export const inventoryItemVariant = pgTable(
  "inventory_item_variant",
  {
    variant_id: text("variant_id").notNull(),
    inventory_item_id: parentId("inventory_item_id", () => inventoryItem.id),
    required_quantity: integer("required_quantity").notNull().default(1),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.variant_id, t.inventory_item_id] }),
    index("inventory_item_variant_item_idx").on(t.inventory_item_id),
    check("inventory_item_variant_required_positive", sql`${t.required_quantity} > 0`),
  ],
);

export type InventoryItemRow = typeof inventoryItem.$inferSelect;
export type InventoryLevelRow = typeof inventoryLevel.$inferSelect;
export type ReservationRow = typeof reservationItem.$inferSelect;
export type InventoryItemVariantRow = typeof inventoryItemVariant.$inferSelect;

const Nullable = (schema: TString) => Type.Optional(Type.Union([schema, Type.Null()]));
const Measure = () => Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()]));
const MetadataBody = OptionalMetadata;
/** A stock quantity: a non-negative integer, bounded so sums stay within PostgreSQL's integer. */
const Quantity = () => Type.Integer({ minimum: 0, maximum: 1_000_000_000 });

const itemFields = {
  sku: Nullable(Code()),
  title: Nullable(Title()),
  description: Nullable(LongText()),
  thumbnail: Nullable(Url()),
  origin_country: Nullable(CountryCode()),
  hs_code: Nullable(Code()),
  mid_code: Nullable(Code()),
  material: Nullable(Title()),
  weight: Measure(),
  length: Measure(),
  height: Measure(),
  width: Measure(),
  requires_shipping: Type.Optional(Type.Boolean()),
  metadata: MetadataBody(),
};

/** Body of `POST /admin/inventory-items/{id}/location-levels`. */
export const InventoryLevelCreate = Strict({
  location_id: Id({ minLength: 1 }),
  stocked_quantity: Type.Optional(Quantity()),
  incoming_quantity: Type.Optional(Quantity()),
  metadata: MetadataBody(),
});
export type InventoryLevelCreate = Static<typeof InventoryLevelCreate>;

/** Body of `POST /admin/inventory-items/{id}/location-levels/{location_id}`. */
export const InventoryLevelUpdate = Strict({
  stocked_quantity: Type.Optional(Quantity()),
  incoming_quantity: Type.Optional(Quantity()),
  metadata: MetadataBody(),
});
export type InventoryLevelUpdate = Static<typeof InventoryLevelUpdate>;

/** Body of `POST /admin/inventory-items/{id}/location-levels/batch` (Medusa's): `delete` takes location ids or level ids. */
export const InventoryLevelBatch = Batch(
  InventoryLevelCreate,
  Type.Composite([Type.Object({ location_id: Id({ minLength: 1 }) }), InventoryLevelUpdate], {
    additionalProperties: false,
  }),
  1000,
);
export type InventoryLevelBatch = Static<typeof InventoryLevelBatch>;

/** Body of `POST /admin/inventory-items`: every field optional; `location_levels` creates levels at once (as Medusa). */
export const InventoryItemCreate = Strict({
  ...itemFields,
  location_levels: Type.Optional(Type.Array(InventoryLevelCreate, { maxItems: 1000 })),
});
export type InventoryItemCreate = Static<typeof InventoryItemCreate>;

/** Body of `POST /admin/inventory-items/{id}`. */
export const InventoryItemUpdate = Strict(itemFields);
export type InventoryItemUpdate = Static<typeof InventoryItemUpdate>;

/** Body of `POST /admin/reservations`. */
export const ReservationCreate = Strict({
  inventory_item_id: Id({ minLength: 1 }),
  location_id: Id({ minLength: 1 }),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  line_item_id: Nullable(Id()),
  description: Nullable(LongText()),
  metadata: MetadataBody(),
});
export type ReservationCreate = Static<typeof ReservationCreate>;

/** Body of `POST /admin/reservations/{id}`. */
export const ReservationUpdate = Strict({
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  location_id: Type.Optional(Id({ minLength: 1 })),
  description: Nullable(LongText()),
  metadata: MetadataBody(),
});
export type ReservationUpdate = Static<typeof ReservationUpdate>;

/** Filters of `GET /admin/inventory-items`. */
export interface InventoryItemFilters extends ListFilters {
  sku?: string[];
  location_id?: string[];
}

/** Filters of `GET /admin/reservations`. */
export interface ReservationFilters {
  id?: string[];
  inventory_item_id?: string[];
  location_id?: string[];
  line_item_id?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A stock level of an item at a location. */
export const InventoryLevelView = RowView(inventoryLevel);
/** An inventory item with its levels and its totals over them. */
export const InventoryItemView = RowView(inventoryItem, {
  location_levels: Type.Array(InventoryLevelView),
  stocked_quantity: Type.Integer(),
  reserved_quantity: Type.Integer(),
});
/** A reservation. */
export const ReservationView = RowView(reservationItem);
/** A variant's link to an inventory item: how many units of it one variant unit takes. */
export const VariantInventoryItemView = RowView(inventoryItemVariant);
