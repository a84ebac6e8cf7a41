import { Type } from "@sinclair/typebox";
import { errors, Id } from "@kasse/db";
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

/** Admin reservations: each change of quantity moves the level's `reserved_quantity` in the same transaction. */
export default async function reservations(app: App): Promise<void> {
  const inventory = app.modules.inventory;

  const requireLocation = async (id: string) => {
    if (!(await app.modules.stockLocation.existing([id])).has(id)) throw errors.notFound(`Stock location with id: ${id} was not found`);
  };

  /**
   * Whether a variant using the item allows backorders. The inventory module does not know
   * variants' flags, so the route asks the product module and passes the answer in.
   */
  const allowsBackorder = async (itemId: string): Promise<boolean> => {
    const variantIds = await inventory.variantIdsForItem(itemId);
    if (variantIds.length === 0) return false;
    const { items } = await app.modules.product.listVariants({ id: variantIds }, { limit: variantIds.length, offset: 0 });
    return items.some((variant) => variant.allow_backorder);
  };

  app.get("/reservations", { schema: { querystring: ListReservations, response: ListAnswer("reservations", ReservationView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await inventory.listReservations(filters, { limit, offset, order });
    return listResponse("reservations", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/reservations", { schema: { body: ReservationCreate, response: Answer("reservation", ReservationView) } }, async (request) => {
    await inventory.retrieve(request.body.inventory_item_id);
    await requireLocation(request.body.location_id);
    const allow_backorder = await allowsBackorder(request.body.inventory_item_id);
    const [reservation] = await inventory.reserve([{ ...request.body, allow_backorder, created_by: request.auth?.actor_id ?? null }]);
    return { reservation };
  });

  app.get("/reservations/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("reservation", ReservationView) } }, async (request) => {
    return { reservation: project(await inventory.retrieveReservation(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/reservations/:id", { schema: { params: Params, body: ReservationUpdate, response: Answer("reservation", ReservationView) } }, async (request) => {
    if (request.body.location_id) await requireLocation(request.body.location_id);
    return { reservation: await inventory.updateReservation(request.params.id, request.body) };
  });

  app.delete("/reservations/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    const [released] = await inventory.releaseReservations([request.params.id]);
    if (!released) throw errors.notFound(`Reservation with id: ${request.params.id} was not found`);
    return { id: request.params.id, object: "reservation", deleted: true as const };
  });
}
