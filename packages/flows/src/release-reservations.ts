import { workflow, type WorkflowContext } from "@kasse/workflows";
import { releaseReservationsStep, type ReservedItem } from "@kasse/modules/inventory";

/** Which reservations to release: by id and/or every reservation of the line items. */
export interface ReleaseReservationsInput {
  reservation_ids?: string[];
  line_item_ids?: string[];
}

/**
 * Releases reservations (order canceled, line removed) inside a workflow; a later failure brings
 * back exactly those released. Already released ones are skipped.
 */
export async function releaseReservations(ctx: WorkflowContext, input: ReleaseReservationsInput): Promise<ReservedItem[]> {
  return ctx.run(releaseReservationsStep, { reservation_ids: input.reservation_ids ?? [], line_item_ids: input.line_item_ids ?? [] });
}

/** {@link releaseReservations} as a workflow of its own. */
export const releaseReservationsWorkflow = workflow("release-reservations", (input: ReleaseReservationsInput, ctx) => releaseReservations(ctx, input));
