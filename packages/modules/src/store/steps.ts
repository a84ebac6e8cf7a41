import { definitions } from "@kasse/workflows";
import type { StoreUpdate } from "./shapes";
import type { Store, StoreReferences, StoreService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { store: StoreService };

const { step } = definitions<StepModules>();

/** Input of {@link updateStoreStep}: the update and which of the ids and codes it names exist. */
export interface UpdateStoreStepInput {
  id: string;
  update: StoreUpdate;
  references: { currencies: string[]; sales_channels: string[]; regions: string[]; locations: string[] };
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Updates the store; undone by putting back its fields and supported currencies as they were. */
export const updateStoreStep = step("update-store", {
  invoke: async (input: UpdateStoreStepInput, ctx) => {
    const stores = ctx.modules.store;
    const previous = await stores.retrieve(input.id);
    const refs: StoreReferences = {
      currencies: new Set(input.references.currencies),
      sales_channels: new Set(input.references.sales_channels),
      regions: new Set(input.references.regions),
      locations: new Set(input.references.locations),
    };
    const updated = await stores.update(input.id, input.update, refs);
    return { output: updated, compensateInput: previous };
  },
  compensate: async (previous: Store, ctx) => {
    // The journal keeps the input as JSON: dates come back as strings.
    await ctx.modules.store.restore({
      ...previous,
      created_at: date(previous.created_at)!,
      updated_at: date(previous.updated_at)!,
      deleted_at: date(previous.deleted_at),
      supported_currencies: previous.supported_currencies.map((c) => ({
        ...c,
        created_at: date(c.created_at)!,
        updated_at: date(c.updated_at)!,
        deleted_at: date(c.deleted_at),
      })),
    });
  },
});
