import type { Modules } from "@kasse/modules";
import { errors } from "@kasse/core";
import type { TaxRateCreate, TaxRateRuleInput, TaxRateUpdate } from "@kasse/modules/tax";

/** A tax rate's targets must be live products, product types and shipping options (400 naming the missing ones). */
async function requireTargets(m: Modules, rules: TaxRateRuleInput[] | undefined): Promise<void> {
  if (!rules?.length) return;
  const ids = (reference: TaxRateRuleInput["reference"]) => [
    ...new Set(rules.filter((r) => r.reference === reference).map((r) => r.reference_id)),
  ];
  const [products, types, options] = [ids("product"), ids("product_type"), ids("shipping_option")];
  const [foundProducts, foundTypes, foundOptions] = await Promise.all([
    products.length ? m.product.existing(products) : new Set<string>(),
    types.length ? m.product.types.existing(types) : new Set<string>(),
    options.length
      ? m.fulfillment
          .listOptions({ id: options }, { limit: options.length, offset: 0 })
          .then(({ items }) => new Set(items.map((o) => o.id)))
      : new Set<string>(),
  ]);
  const missing = [
    ...products.filter((id) => !foundProducts.has(id)).map((id) => `product ${id}`),
    ...types.filter((id) => !foundTypes.has(id)).map((id) => `product type ${id}`),
    ...options.filter((id) => !foundOptions.has(id)).map((id) => `shipping option ${id}`),
  ];
  if (missing.length) throw errors.invalidData(`Tax rate rule targets were not found: ${missing.join(", ")}`);
}

/** Creates a tax rate (a region's default, or an override of existing targets). */
export async function createTaxRate(m: Modules, input: TaxRateCreate, createdBy: string | null) {
  await requireTargets(m, input.rules);
  return m.tax.createRate(input, createdBy);
}

/** Updates a tax rate; new targets must exist. */
export async function updateTaxRate(m: Modules, id: string, input: TaxRateUpdate, createdBy: string | null) {
  await requireTargets(m, input.rules);
  return m.tax.updateRate(id, input, createdBy);
}

/** Adds an existing target to an override rate. */
export async function addTaxRateRule(m: Modules, id: string, rule: TaxRateRuleInput, createdBy: string | null) {
  await requireTargets(m, [rule]);
  return m.tax.addRateRule(id, rule, createdBy);
}
