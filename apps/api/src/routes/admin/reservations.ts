import { Type } from "@sinclair/typebox";
import { errors, Id } from "@kasse/db";
import { createReservation, updateReservation } from "@kasse/flows";
import { ReservationCreate, ReservationUpdate, ReservationView } from "@kasse/modules/inventory";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListReservations = Type.Object(
  {
    ...ListQuery,
    id: Type.Optional(ArrayQuery(Id())),
    inventory_item_id: Type.Optional(ArrayQuery(Id())),
    location_id: Type.Optional(ArrayQuery(Id())),
    line_item_id: Type.Optional(ArrayQuery(Id())),
  },
  { additionalProperties: false },
);

/**
 * Admin reservations: each change of quantity moves the level's `reserved_quantity` in the same
 * transaction. Creating and moving one checks the item, the location and the variants' backorder
 * flag (other modules) in the flow (`createReservation`, `updateReservation`).
 */
export default async function reservations(app: App): Promise<void> {
  const inventory = app.modules.inventory;

  app.get("/reservations", { schema: { querystring: ListReservations, response: ListAnswer("reservations", ReservationView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await inventory.listReservations(filters, { limit, offset, order });
    return listResponse("reservations", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/reservations", { schema: { body: ReservationCreate, response: Answer("reservation", ReservationView) } }, async (request) => {
    return { reservation: await createReservation(app.modules, request.body, request.auth?.actor_id ?? null) };
  });

  app.get("/reservations/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("reservation", ReservationView) } }, async (request) => {
    return { reservation: project(await inventory.retrieveReservation(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/reservations/:id", { schema: { params: Params, body: ReservationUpdate, response: Answer("reservation", ReservationView) } }, async (request) => {
    return { reservation: await updateReservation(app.modules, request.params.id, request.body) };
  });

  app.delete("/reservations/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    const [released] = await inventory.releaseReservations([request.params.id]);
    if (!released) throw errors.notFound(`Reservation with id: ${request.params.id} was not found`);
    return { id: request.params.id, object: "reservation", deleted: true as const };
  });
}
