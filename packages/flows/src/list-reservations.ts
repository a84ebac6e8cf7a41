import type { ListPaging } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import type { ReservationFilters } from "@kasse/modules/inventory";

/**
 * Reservations as Medusa's clients ask for an order's: by its order line ids (the dashboard's
 * "allocated" badge), though checkout reserved under the cart lines'. Those are found too and
 * answered under the order line's id.
 */
export async function listReservations(m: Modules, filters: ReservationFilters, page: ListPaging) {
  if (!filters.line_item_id?.length) return m.inventory.listReservations(filters, page);
  const lineOfKey = new Map(
    [...(await m.order.reservationKeys(filters.line_item_id))].map(([line, key]) => [key, line]),
  );
  const found = await m.inventory.listReservations(
    { ...filters, line_item_id: [...filters.line_item_id, ...lineOfKey.keys()] },
    page,
  );
  return {
    ...found,
    items: found.items.map((r) => {
      const line = r.line_item_id ? lineOfKey.get(r.line_item_id) : undefined;
      return line ? { ...r, line_item_id: line } : r;
    }),
  };
}
