import { errors } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import type { OrderActor, ReturnRequestBegin, ReturnRequestUpdate } from "@kasse/modules/order";

// A pending return request lives in the order module; where its units go back (a stock location)
// is another module's record, checked here and passed in (see inventory-references.ts).

async function requireLocation(m: Modules, id: string | undefined): Promise<void> {
  if (id !== undefined && !(await m.stockLocation.existing([id])).has(id))
    throw errors.notFound(`Stock location with id: ${id} was not found`);
}

/** Begins a return request (Medusa's `POST /admin/returns`); a location given must exist. */
export async function beginReturnRequest(m: Modules, input: ReturnRequestBegin, actor: OrderActor) {
  await requireLocation(m, input.location_id);
  return m.returnChange.beginRequest(input, actor);
}

/** Changes a pending return request (`POST /admin/returns/{id}`); a new location must exist. */
export async function updateReturnRequest(m: Modules, returnId: string, input: ReturnRequestUpdate) {
  await requireLocation(m, input.location_id);
  return m.returnChange.updateRequest(returnId, input);
}
