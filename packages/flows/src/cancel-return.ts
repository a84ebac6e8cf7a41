import { workflow } from "./definitions";
import { cancelReturnStep, type OrderActor } from "@kasse/modules/order";

/**
 * Cancels a requested return nothing of which has been received (Medusa's cancel-return): the
 * units asked back can be returned again. Nothing moved in stock, so nothing moves back. An
 * exchange's or a claim's inbound is refused (400): it is canceled with its exchange or claim.
 */
export const cancelReturnWorkflow = workflow(
  "cancel-return",
  async (input: { return_id: string; order_id?: string | null; actor?: OrderActor | null }, ctx) => {
    return ctx.run(cancelReturnStep, {
      return_id: input.return_id,
      order_id: input.order_id ?? null,
      actor: input.actor ?? null,
      alone: true,
    });
  },
);
