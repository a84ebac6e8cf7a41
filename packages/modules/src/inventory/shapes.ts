import { Type, type Static, type TString } from "@sinclair/typebox";
import { Code, CountryCode, Id, LongText, OptionalMetadata, Title, Url, Strict, Batch } from "@kasse/core";
import { RowView, type ListFilters } from "@kasse/db";
import { inventoryItem, inventoryItemVariant, inventoryLevel, reservationItem } from "./schema";

const Nullable = (schema: TString) => Type.Optional(Type.Union([schema, Type.Null()]));
const Measure = () => Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Null()]));
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
  metadata: OptionalMetadata(),
};

/** Body of `POST /admin/inventory-items/{id}/location-levels/{location_id}`. */
export const InventoryLevelUpdate = Strict({
  stocked_quantity: Type.Optional(Quantity()),
  incoming_quantity: Type.Optional(Quantity()),
  metadata: OptionalMetadata(),
});
export type InventoryLevelUpdate = Static<typeof InventoryLevelUpdate>;

/** Body of `POST /admin/inventory-items/{id}/location-levels`. */
export const InventoryLevelCreate = Strict({ location_id: Id({ minLength: 1 }), ...InventoryLevelUpdate.properties });
export type InventoryLevelCreate = Static<typeof InventoryLevelCreate>;

/** Body of `POST /admin/inventory-items/{id}/location-levels/batch` (Medusa's): `delete` takes location ids or level ids. */
// An update names its level by `location_id`, with the fields of a create: the create's schema serves both.
export const InventoryLevelBatch = Batch(InventoryLevelCreate, InventoryLevelCreate, 1000);
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
  metadata: OptionalMetadata(),
});
export type ReservationCreate = Static<typeof ReservationCreate>;

/** Body of `POST /admin/reservations/{id}`. */
export const ReservationUpdate = Strict({
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
  location_id: Type.Optional(Id({ minLength: 1 })),
  description: Nullable(LongText()),
  metadata: OptionalMetadata(),
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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type InventoryItemRow,
  type InventoryItemVariantRow,
  type InventoryLevelRow,
  type ReservationRow,
} from "./schema";
