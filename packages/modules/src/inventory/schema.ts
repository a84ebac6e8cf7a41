import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text } from "@kasse/db";
import {
  metadata,
  entityTable,
  parentId,
  liveUniqueIndex,
  createdAt,
  indexes,
  searchText,
  trigramIndex,
  rowExpression,
  nonNegative,
  positive,
} from "@kasse/db";

/** The text `q` searches on inventory items (sku, title, description), one trigram-indexed expression. */
export const inventorySearchText = () => searchText(["sku", "title", "description"]);

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
    trigramIndex("inventory_item_search_trgm_idx", inventorySearchText()),
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
      .generatedAlwaysAs(rowExpression("stocked_quantity - reserved_quantity")),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("inventory_level_item_location_uq").on(t.inventory_item_id, t.location_id),
    index("inventory_level_location_idx").on(t.location_id),
    nonNegative("inventory_level_stocked_nonnegative", t.stocked_quantity),
    nonNegative("inventory_level_reserved_nonnegative", t.reserved_quantity),
    nonNegative("inventory_level_incoming_nonnegative", t.incoming_quantity),
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
    positive("reservation_item_quantity_positive", t.quantity),
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
    positive("inventory_item_variant_required_positive", t.required_quantity),
  ],
);
export type InventoryItemRow = typeof inventoryItem.$inferSelect;
export type InventoryLevelRow = typeof inventoryLevel.$inferSelect;
export type ReservationRow = typeof reservationItem.$inferSelect;
export type InventoryItemVariantRow = typeof inventoryItemVariant.$inferSelect;
