import { definitions } from "@kasse/workflows";
import type { FulfillmentProviderCall, FulfillmentProviderRegistry } from "./providers";
import type { FulfillmentRecordCreate, FulfillmentRecordService } from "./records";
import type { FulfillmentDate } from "./schema";
import type { ShipmentCreate } from "./shapes";
import type { DeletedZoneRecords, FulfillmentService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = {
  fulfillment: FulfillmentService;
  fulfillmentRecord: FulfillmentRecordService;
  fulfillmentProviders: FulfillmentProviderRegistry;
};

const { step } = definitions<StepModules>();

/**
 * Deletes the fulfillment sets of a stock location (with their zones, geo zones and shipping
 * options) before the location goes; compensation makes what it deleted live again.
 */
export const deleteLocationFulfillmentSetsStep = step("delete-location-fulfillment-sets", {
  invoke: async (input: { stock_location_id: string }, ctx) => {
    const deleted = await ctx.modules.fulfillment.deleteSetsOfLocation(input.stock_location_id);
    return { output: deleted.set_ids, compensateInput: deleted };
  },
  compensate: async (deleted: DeletedZoneRecords, ctx) => {
    await ctx.modules.fulfillment.restoreDeleted(deleted);
  },
});

/**
 * Asks the fulfillment's provider to create it (an outside effect: at least once, with the step's
 * idempotency key, so the provider does it once). Compensation cancels it with the provider when a
 * later step fails. A provider that never answers fails the attempt at the timeout.
 */
export const createProviderFulfillmentStep = step("create-provider-fulfillment", {
  transactional: false,
  timeoutMs: 10_000,
  invoke: async (input: Omit<FulfillmentProviderCall, "idempotencyKey"> & { provider_id: string }, ctx) => {
    const { provider_id, ...call } = input;
    const { data } = await ctx.modules.fulfillmentProviders
      .get(provider_id)
      .createFulfillment({ ...call, idempotencyKey: ctx.idempotencyKey });
    return { output: { provider_id, data }, compensateInput: { provider_id, data } };
  },
  compensate: async (input: { provider_id: string; data: Record<string, unknown> }, ctx) => {
    await ctx.modules.fulfillmentProviders
      .get(input.provider_id)
      .cancelFulfillment({ data: input.data, idempotencyKey: `${ctx.idempotencyKey}:cancel` });
  },
});

/** Records a fulfillment; compensation deletes it. */
export const createFulfillmentRecordStep = step("create-fulfillment-record", {
  invoke: async (input: FulfillmentRecordCreate, ctx) => {
    const created = await ctx.modules.fulfillmentRecord.create(input);
    await ctx.emit("order.fulfillment_created", { order_id: input.order_id, fulfillment_id: created.id });
    return { output: { id: created.id }, compensateInput: { id: created.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.fulfillmentRecord.delete(id);
  },
});

/**
 * Cancels a fulfillment with the provider that created it (the last step of a cancellation: it
 * cannot be undone), with the step's idempotency key.
 */
export const cancelProviderFulfillmentStep = step("cancel-provider-fulfillment", {
  transactional: false,
  timeoutMs: 10_000,
  invoke: async (input: { provider_id?: string; data?: Record<string, unknown> }, ctx) => {
    await ctx.modules.fulfillmentProviders
      .get(input.provider_id ?? "manual_manual")
      .cancelFulfillment({ data: input.data ?? {}, idempotencyKey: ctx.idempotencyKey });
    return { output: null };
  },
});

/**
 * Marks a fulfillment of an order shipped (with the shipment's items checked and its labels),
 * delivered or canceled, checking the move is allowed; compensation clears the mark. Outputs the
 * fulfillment's items and consumed reservations.
 */
export const markFulfillmentStep = step("mark-fulfillment", {
  invoke: async (
    input: {
      order_id: string;
      fulfillment_id: string;
      field: FulfillmentDate;
      shipment?: ShipmentCreate;
    },
    ctx,
  ) => {
    const marked = await ctx.modules.fulfillmentRecord.mark(
      input.order_id,
      input.fulfillment_id,
      input.field,
      true,
      input.shipment ?? {},
    );
    if (input.field === "shipped_at")
      await ctx.emit("shipment.created", {
        id: marked.id,
        order_id: input.order_id,
        tracking_numbers: (input.shipment?.labels ?? []).map((l) => l.tracking_number),
        no_notification: input.shipment?.no_notification ?? false,
      });
    else if (input.field === "delivered_at")
      await ctx.emit("delivery.created", { id: marked.id, order_id: input.order_id });
    else await ctx.emit("order.fulfillment_canceled", { order_id: input.order_id, fulfillment_id: marked.id });
    const output = {
      id: marked.id,
      location_id: marked.location_id,
      items: marked.items.map((i) => ({ id: i.line_item_id, quantity: i.quantity })),
      inventory_consumed: marked.inventory_consumed,
      provider_id: marked.provider_id,
      data: marked.data,
    };
    return { output, compensateInput: input };
  },
  compensate: async (input: { order_id: string; fulfillment_id: string; field: FulfillmentDate }, ctx) => {
    await ctx.modules.fulfillmentRecord.mark(input.order_id, input.fulfillment_id, input.field, false);
  },
});
