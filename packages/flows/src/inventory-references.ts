import { errors } from "@kasse/core";
import { inventoryLevels } from "./inventory-levels";
import type { Modules } from "@kasse/modules";
import type {
  InventoryItemCreate,
  InventoryLevelBatch,
  InventoryLevelCreate,
  ReservationCreate,
  ReservationUpdate,
} from "@kasse/modules/inventory";
import type { ApiKeySalesChannels } from "@kasse/modules/api-key";
import type { StockLocationFulfillmentProviders, StockLocationSalesChannels } from "@kasse/modules/stock-location";

// Writes inside one module whose input names records of another module (a stock location, a sales
// channel, a variant's backorder flag): the flow checks them with their module and passes the
// answer in; the write itself is one call of the module that owns it (one transaction, with its
// events where it records any).

/** Unknown stock locations are 404, as Medusa answers. */
async function requireLocations(m: Modules, ids: string[]): Promise<void> {
  const known = await m.stockLocation.existing(ids);
  const unknown = [...new Set(ids)].filter((id) => !known.has(id));
  if (unknown.length) throw errors.notFound(`Stock locations with ids: ${unknown.join(", ")} were not found`);
}

/** A reservation's stock location must exist (404). */
async function requireLocation(m: Modules, id: string): Promise<void> {
  if (!(await m.stockLocation.existing([id])).has(id))
    throw errors.notFound(`Stock location with id: ${id} was not found`);
}

/**
 * Whether a variant using the item allows backorders. The inventory module does not know
 * variants' flags, so the product module answers and the reservation is given the answer.
 */
async function allowsBackorder(m: Modules, itemId: string): Promise<boolean> {
  const variantIds = await m.inventory.variantIdsForItem(itemId);
  if (variantIds.length === 0) return false;
  const { items } = await m.product.listVariants({ id: variantIds }, { limit: variantIds.length, offset: 0 });
  return items.some((variant) => variant.allow_backorder);
}

/** An admin reservation: the item and the location must exist; backorders as the item's variants allow. */
export async function createReservation(m: Modules, input: ReservationCreate, createdBy: string | null) {
  await m.inventory.retrieve(input.inventory_item_id);
  await requireLocation(m, input.location_id);
  const allow_backorder = await allowsBackorder(m, input.inventory_item_id);
  // An order line's units are reserved under the key its checkout reservations carry: fulfilment consumes them together.
  const key = input.line_item_id
    ? (await m.order.reservationKeys([input.line_item_id])).get(input.line_item_id)
    : undefined;
  const [reservation] = await m.inventory.reserve([
    { ...input, line_item_id: key ?? input.line_item_id, allow_backorder, created_by: createdBy },
  ]);
  return key ? { ...reservation!, line_item_id: input.line_item_id! } : reservation!;
}

/** Changes a reservation; a new location must exist. */
export async function updateReservation(m: Modules, id: string, input: ReservationUpdate) {
  if (input.location_id) await requireLocation(m, input.location_id);
  return m.inventory.updateReservation(id, input);
}

/** A new inventory item with its stock at locations that exist. */
export async function createInventoryItem(m: Modules, input: InventoryItemCreate) {
  await requireLocations(
    m,
    (input.location_levels ?? []).map((l) => l.location_id),
  );
  return m.inventory.create(input);
}

/** Stocks an item at one more location (the item, then the location, must exist). */
export async function addInventoryLevel(m: Modules, itemId: string, input: InventoryLevelCreate) {
  await m.inventory.retrieve(itemId);
  await requireLocations(m, [input.location_id]);
  return inventoryLevels.create(m, itemId, [input]);
}

/** Creates, updates and deletes an item's levels at once; created ones at locations that exist. */
export async function batchInventoryLevels(m: Modules, itemId: string, input: InventoryLevelBatch) {
  await requireLocations(
    m,
    (input.create ?? []).map((l) => l.location_id),
  );
  return inventoryLevels.batch(m, itemId, input);
}

/** Links and unlinks a publishable key's sales channels; the ones added must exist. */
export async function setApiKeySalesChannels(m: Modules, id: string, input: ApiKeySalesChannels) {
  const add = input.add ?? [];
  const existing = await m.salesChannel.existing(add);
  const missing = add.filter((channelId) => !existing.has(channelId));
  if (missing.length) throw errors.notFound(`Sales channels with IDs ${[...new Set(missing)].join(", ")} do not exist`);
  return m.apiKey.updateSalesChannels(id, input);
}

/**
 * Which fulfillment providers a stock location uses (`add`, `remove`): each id must be a registered
 * provider and in one list only (400 otherwise); 404 for an unknown location.
 */
export async function setStockLocationFulfillmentProviders(
  m: Modules,
  id: string,
  input: StockLocationFulfillmentProviders,
) {
  const registered = new Set(m.fulfillmentProviders.ids());
  const named = [...(input.add ?? []), ...(input.remove ?? [])];
  const unknown = [...new Set(named.filter((provider) => !registered.has(provider)))];
  if (unknown.length) throw errors.invalidData(`Fulfillment providers with ids: ${unknown.join(", ")} were not found`);
  const both = (input.add ?? []).filter((provider) => input.remove?.includes(provider));
  if (both.length)
    throw errors.invalidData(`Fulfillment providers ${[...new Set(both)].join(", ")}: both added and removed`);
  return m.stockLocation.updateFulfillmentProviders(id, input);
}

/** Links and unlinks a stock location's sales channels; the ones added must exist. */
export async function setStockLocationSalesChannels(m: Modules, id: string, input: StockLocationSalesChannels) {
  const add = input.add ?? [];
  const known = await m.salesChannel.existing(add);
  const unknown = add.filter((channelId) => !known.has(channelId));
  if (unknown.length) throw errors.notFound(`Sales channels with ids: ${unknown.join(", ")} were not found`);
  return m.stockLocation.updateSalesChannels(id, input);
}
