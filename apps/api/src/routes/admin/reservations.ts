import { errors, Id } from "@kasse/core";
import { createReservation, listReservations, updateReservation } from "@kasse/flows";
import { ReservationCreate, ReservationUpdate, ReservationView } from "@kasse/modules/inventory";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const ListReservations = ListQueryOf({ id: Id(), inventory_item_id: Id(), location_id: Id(), line_item_id: Id() });

/**
 * Admin reservations: each change of quantity moves the level's `reserved_quantity` in the same
 * transaction. Creating and moving one checks the item, the location and the variants' backorder
 * flag (other modules) in the flow (`createReservation`, `updateReservation`).
 */
export default async function reservations(app: App): Promise<void> {
  const inventory = app.modules.inventory;

  crudRoutes(app, {
    path: "/reservations",
    one: "reservation",
    many: "reservations",
    view: ReservationView,
    list: { query: ListReservations, run: (filters, page) => listReservations(app.modules, filters, page) },
    retrieve: (id) => inventory.retrieveReservation(id),
    create: {
      body: ReservationCreate,
      run: (body, request) => createReservation(app.modules, body, request.auth?.actor_id ?? null),
    },
    update: { body: ReservationUpdate, run: (id, body) => updateReservation(app.modules, id, body) },
    delete: async (id) => {
      const [released] = await inventory.releaseReservations([id]);
      if (!released) throw errors.notFound(`Reservation with id: ${id} was not found`);
    },
  });
}
