import { setRegionTaxInclusionStep } from "@kasse/modules/pricing";
import { createRegionStep, updateRegionStep, type RegionCreate, type RegionUpdate } from "@kasse/modules/region";
import { workflow } from "@kasse/workflows";

/**
 * A region write as Medusa's region form sends it: the region, and whether its prices include tax
 * (kept where pricing reads it, as the region's price preference).
 */
export type RegionCreateBody = RegionCreate & { is_tax_inclusive?: boolean };
export type RegionUpdateBody = RegionUpdate & { is_tax_inclusive?: boolean };

/**
 * Creates a region (region module) and, when `is_tax_inclusive` is given, its price preference
 * (pricing), each step undone if a later one fails. Returns the region's id.
 */
export const createRegionWorkflow = workflow("create-region", async (input: RegionCreateBody, ctx) => {
  const { is_tax_inclusive, ...region } = input;
  const id = await ctx.run(createRegionStep, region);
  if (is_tax_inclusive !== undefined) await ctx.run(setRegionTaxInclusionStep, [{ region_id: id, is_tax_inclusive }]);
  return id;
});

/** Updates a region and, when `is_tax_inclusive` is given, its price preference, as {@link createRegionWorkflow}. */
export const updateRegionWorkflow = workflow(
  "update-region",
  async (input: { id: string; update: RegionUpdateBody }, ctx) => {
    const { is_tax_inclusive, ...update } = input.update;
    await ctx.run(updateRegionStep, { id: input.id, update });
    if (is_tax_inclusive !== undefined)
      await ctx.run(setRegionTaxInclusionStep, [{ region_id: input.id, is_tax_inclusive }]);
    return input.id;
  },
);
