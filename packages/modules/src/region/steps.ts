import { definitions } from "@kasse/workflows";
import type { RegionCreate, RegionUpdate } from "./shapes";
import type { RegionService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { region: RegionService };

const { step } = definitions<StepModules>();

/** Creates a region; undone by deleting it (its countries become free again). */
export const createRegionStep = step("create-region", {
  invoke: async (input: RegionCreate, ctx) => {
    const region = await ctx.modules.region.create(input);
    return { output: region.id, compensateInput: region.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.modules.region.delete(id);
  },
});

/** Updates a region; undone by writing back what it replaced (fields, countries and payment providers). */
export const updateRegionStep = step("update-region", {
  invoke: async (input: { id: string; update: RegionUpdate }, ctx) => {
    const before = await ctx.modules.region.retrieve(input.id);
    await ctx.modules.region.update(input.id, input.update);
    const previous: RegionUpdate = {
      name: before.name,
      currency_code: before.currency_code,
      automatic_taxes: before.automatic_taxes,
      metadata: before.metadata,
      countries: before.countries.map((c) => c.iso_2),
      payment_providers: before.payment_providers.map((p) => p.id),
    };
    return { output: null, compensateInput: { id: input.id, previous } };
  },
  compensate: async ({ id, previous }: { id: string; previous: RegionUpdate }, ctx) => {
    await ctx.modules.region.update(id, previous);
  },
});
