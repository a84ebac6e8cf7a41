// The inventory module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/inventory/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { inventoryItem, inventoryItemVariant, inventoryLevel, reservationItem } from "./schema";
