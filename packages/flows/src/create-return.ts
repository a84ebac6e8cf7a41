import { workflow } from "@kasse/workflows";
import { createReturnStep, type OrderActor, type ReturnCreate } from "@kasse/modules/order";

export interface CreateReturnInput {
  order_id: string;
  return: ReturnCreate;
  actor?: OrderActor | null;
}

/**
 * Requests a return of fulfilled units: quantities ≤ fulfilled − already requested, reasons must
 * exist, the order must not be canceled. Nothing moves in stock until the return is received.
 */
export const createReturnWorkflow = workflow("create-return", async (input: CreateReturnInput, ctx) => {
  return ctx.run(createReturnStep, input);
});
