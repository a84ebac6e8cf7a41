import { errors, generateId } from "@kasse/core";
import { isUniqueViolation } from "@kasse/db";
import { productQueries as q } from "./queries";
import { loadVariantOptions, type ProductOption } from "./reads";
import type { ProductVariantRow } from "./schema";
import type { VariantPriceInput, VariantUpsert } from "./shapes";

/** What a flow needs of a written variant to set its prices and inventory. */
export type VariantWrite = Pick<ProductVariantRow, "id" | "title" | "sku" | "manage_inventory"> & {
  /** The prices given in the request, when given: the flow hands them to pricing. */
  prices?: VariantPriceInput[];
};

type VariantFields = Omit<VariantUpsert, "id" | "options" | "prices">;

/** What flows need of a written variant: its row's id, title, sku and flag, and the `prices` the request gave. */
const written = (row: ProductVariantRow, prices: VariantPriceInput[] | undefined): VariantWrite => ({
  id: row.id,
  title: row.title,
  sku: row.sku,
  manage_inventory: row.manage_inventory,
  ...(prices ? { prices } : {}),
});

/**
 * The option value ids a variant's `{title: value}` mapping names. Every option of the product
 * must be given exactly once, with one of its values (as Medusa requires).
 */
function resolveOptionValues(
  mapping: Record<string, string>,
  options: ProductOption[],
  variantLabel: string,
): string[] {
  const byTitle = new Map(options.map((o) => [o.title, o]));
  for (const title of Object.keys(mapping)) {
    if (!byTitle.has(title))
      throw errors.invalidData(`Option '${title}' of variant '${variantLabel}' does not exist on the product`);
  }
  return options.map((option) => {
    const value = mapping[option.title];
    if (value === undefined)
      throw errors.invalidData(`Variant '${variantLabel}' has no value for option '${option.title}'`);
    const found = option.values.find((v) => v.value === value);
    if (!found)
      throw errors.invalidData(
        `Value '${value}' is not a value of option '${option.title}' (variant '${variantLabel}')`,
      );
    return found.id;
  });
}

/** Rejects skus repeated in one request or held by another live variant (409). */
async function assertSkusFree(skus: Array<{ sku: string; exceptId?: string }>): Promise<void> {
  const seen = new Set<string>();
  for (const { sku } of skus) {
    if (seen.has(sku)) throw errors.conflict(`Product variant with sku: ${sku} already exists`);
    seen.add(sku);
  }
  if (seen.size === 0) return;
  const taken = await q.variantsWithSkus({ skus: [...seen] });
  // Report the first clash in request order.
  for (const { sku, exceptId } of skus) {
    if (taken.some((row) => row.sku === sku && row.id !== exceptId))
      throw errors.conflict(`Product variant with sku: ${sku} already exists`);
  }
}

/** Maps a late unique violation (a concurrent writer took the sku) to 409. */
async function mapSkuConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, "product_variant_sku_uq"))
      throw errors.conflict("Product variant with this sku already exists");
    throw error;
  }
}

/** Inserts variants of one product with their option links; returns what flows need. */
export async function insertVariants(
  productId: string,
  inputs: Array<VariantFields & { title: string; options?: Record<string, string>; prices?: VariantPriceInput[] }>,
  options: ProductOption[],
  firstRank: number,
): Promise<VariantWrite[]> {
  if (inputs.length === 0) return [];
  await assertSkusFree(inputs.filter((v) => v.sku).map((v) => ({ sku: v.sku! })));
  const rows = inputs.map((input, i) => {
    const { options: mapping, prices: _prices, ...fields } = input;
    return {
      row: {
        ...fields,
        id: generateId("variant"),
        product_id: productId,
        variant_rank: fields.variant_rank ?? firstRank + i,
      },
      links: resolveOptionValues(mapping ?? {}, options, input.title),
    };
  });
  const returned = await mapSkuConflict(q.insertVariantRows(rows.map((r) => r.row)));
  // In input order, as the ids were given.
  const byId = new Map(returned.map((v) => [v.id, v]));
  const inserted = rows.map((r) => byId.get(r.row.id)!);
  const links = rows.flatMap((r) => r.links.map((option_value_id) => ({ variant_id: r.row.id, option_value_id })));
  if (links.length) await q.insertVariantOptions(links);
  return inserted.map((v, i) => written(v, inputs[i]!.prices));
}

/** Updates one variant's fields and, when `mapping` is given, its option values. */
export async function updateVariantRow(
  variantId: string,
  fields: VariantFields,
  mapping: Record<string, string> | undefined,
  options: ProductOption[],
  prices: VariantPriceInput[] | undefined,
): Promise<VariantWrite> {
  if (fields.sku) await assertSkusFree([{ sku: fields.sku, exceptId: variantId }]);
  const row =
    Object.keys(fields).length > 0
      ? await mapSkuConflict(q.updateVariant(variantId, fields))
      : await q.variantById({ id: variantId });
  if (mapping) {
    const links = resolveOptionValues(mapping, options, row!.title);
    await q.unlinkVariantsOptions({ ids: [variantId] });
    await q.insertVariantOptions(links.map((option_value_id) => ({ variant_id: variantId, option_value_id })));
  }
  return written(row!, prices);
}

/**
 * Two live variants of a product with the same option combination are rejected (400): checked
 * after a write, over the product's whole variant set, before the transaction commits.
 */
export async function assertUniqueCombinations(productId: string): Promise<void> {
  const variants = await q.variantIdsOf({ ids: [productId] });
  const values = await loadVariantOptions(variants.map((v) => v.id));
  const seen = new Map<string, string>();
  for (const variant of variants) {
    const chosen = values.get(variant.id) ?? [];
    if (chosen.length === 0) continue;
    const key = chosen
      .map((v) => v.id)
      .sort()
      .join("|");
    const other = seen.get(key);
    if (other) {
      const label = chosen.map((v) => `${v.option.title}: ${v.value}`).join(", ");
      throw errors.invalidData(`Variants '${other}' and '${variant.title}' have the same options (${label})`);
    }
    seen.set(key, variant.title);
  }
}
