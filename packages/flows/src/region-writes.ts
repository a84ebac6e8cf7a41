import { setRegionTaxInclusionStep } from "@kasse/modules/pricing";
import { createRegionStep, updateRegionStep, type RegionCreate, type RegionUpdate } from "@kasse/modules/region";
import type { Modules } from "@kasse/modules";
import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";

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

/**
 * The payment providers a region offers must be ones this process has (the built-in ones and the
 * configured ones: `pp_stripe_stripe` with `STRIPE_API_KEY`): an unknown id is `invalid_data`.
 */
function assertPaymentProviders(m: Modules, ids: string[] | undefined): void {
  for (const id of ids ?? []) m.payment.providers.get(id);
}

/** Creates a region ({@link createRegionWorkflow}) after checking the payment providers it names. */
export function createRegion(engine: Pick<Engine, "execute">, m: Modules, body: RegionCreateBody): Promise<string> {
  assertPaymentProviders(m, body.payment_providers);
  return engine.execute(createRegionWorkflow, body);
}

/** Updates a region ({@link updateRegionWorkflow}) after checking the payment providers it names. */
export function updateRegion(
  engine: Pick<Engine, "execute">,
  m: Modules,
  id: string,
  update: RegionUpdateBody,
): Promise<string> {
  assertPaymentProviders(m, update.payment_providers);
  return engine.execute(updateRegionWorkflow, { id, update });
}
