import { groupBy } from "@kasse/db";
import { productQueries as q } from "./queries";
import type {
  ProductCategoryRow,
  ProductCollectionRow,
  ProductImageRow,
  ProductOptionRow,
  ProductOptionValueRow,
  ProductRow,
  ProductTagRow,
  ProductTypeRow,
  ProductVariantRow,
} from "./schema";
import type { ProductRelation } from "./shapes";

/** A variant's value for one option, as Medusa's Admin API shows it. */
export interface VariantOptionValue {
  id: string;
  value: string;
  option_id: string;
  option: { id: string; title: string; product_id: string };
}
export type ProductVariant = ProductVariantRow & { options: VariantOptionValue[] };
export type ProductOption = ProductOptionRow & { values: ProductOptionValueRow[] };

/** A product with the relations that were asked for. */
export type Product = ProductRow & {
  variants?: ProductVariant[];
  options?: ProductOption[];
  images?: ProductImageRow[];
  tags?: ProductTagRow[];
  categories?: ProductCategoryRow[];
  collection?: ProductCollectionRow | null;
  type?: ProductTypeRow | null;
  /** Linked channel ids; the channel records belong to the sales-channel module. */
  sales_channels?: Array<{ id: string }>;
};

/** The option values of `variantIds`, grouped by variant: one query (none without variants). */
export async function loadVariantOptions(variantIds: string[]): Promise<Map<string, VariantOptionValue[]>> {
  if (variantIds.length === 0) return new Map();
  return groupBy(await q.variantOptionsOf({ ids: variantIds }), (r) => r.variant_id, {
    value: (r) => ({
      id: r.id,
      value: r.value,
      option_id: r.option_id,
      option: { id: r.option_id, title: r.option_title, product_id: r.product_id },
    }),
  });
}

/** A product's `rows` (its variants, its options), each with its `children` (by the row's id) as `key`, grouped by product. */
function byProductWith<R extends { id: string; product_id: string }, K extends string, C>(
  rows: R[],
  key: K,
  children: Map<string, C[]>,
): Map<string, Array<R & Record<K, C[]>>> {
  return groupBy(
    rows.map((row) => ({ ...row, [key]: children.get(row.id) ?? [] }) as R & Record<K, C[]>),
    (row) => row.product_id,
  );
}

/** Live variants of `productIds` with their option values: two queries. */
async function loadVariants(productIds: string[]): Promise<Map<string, ProductVariant[]>> {
  if (productIds.length === 0) return new Map();
  const variants = await q.variantsOf(productIds);
  return byProductWith(variants, "options", await loadVariantOptions(variants.map((v) => v.id)));
}

/** Live options of `productIds` with their values: two queries. */
export async function loadOptions(productIds: string[]): Promise<Map<string, ProductOption[]>> {
  if (productIds.length === 0) return new Map();
  const options = await q.optionsOf(productIds);
  return byProductWith(options, "values", await optionValues(options.map((o) => o.id)));
}

/** The live values of `optionIds`, grouped by option: one query (none without options). */
export async function optionValues(optionIds: string[]): Promise<Map<string, ProductOptionValueRow[]>> {
  if (optionIds.length === 0) return new Map();
  return groupBy(await q.optionValuesOf(optionIds), (v) => v.option_id);
}

/**
 * Loads `relations` for a page of products, one query per relation (two for variants and
 * options) whatever the page size, and returns the products with them attached.
 */
export async function attachRelations(rows: ProductRow[], relations: ReadonlySet<ProductRelation>): Promise<Product[]> {
  if (rows.length === 0 || relations.size === 0) return rows;
  const ids = rows.map((r) => r.id);
  const has = (r: ProductRelation) => relations.has(r);
  const collectionIds = [...new Set(rows.map((r) => r.collection_id).filter((v): v is string => !!v))];
  const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string => !!v))];
  const byId = <T extends { id: string }>(found: T[]) => new Map(found.map((c) => [c.id, c]));
  const [variants, options, images, tags, categories, collections, types, channels] = await Promise.all([
    has("variants") ? loadVariants(ids) : undefined,
    has("options") ? loadOptions(ids) : undefined,
    has("images") ? q.imagesOf(ids).then((r) => groupBy(r, (i) => i.product_id)) : undefined,
    has("tags") ? q.tagsOf({ ids }).then((r) => groupBy(r, (t) => t.product_id)) : undefined,
    has("categories") ? q.categoriesOf({ ids }).then((r) => groupBy(r, (c) => c.product_id)) : undefined,
    has("collection") && collectionIds.length ? q.collectionsByIds(collectionIds).then(byId) : undefined,
    has("type") && typeIds.length ? q.typesByIds(typeIds).then(byId) : undefined,
    has("sales_channels") ? q.channelsOf(ids).then((r) => groupBy(r, (l) => l.product_id)) : undefined,
  ]);
  return rows.map((row) => {
    const out: Product = { ...row };
    if (variants) out.variants = variants.get(row.id) ?? [];
    if (options) out.options = options.get(row.id) ?? [];
    if (images) out.images = images.get(row.id) ?? [];
    if (tags) out.tags = (tags.get(row.id) ?? []).map((t) => t.tag);
    if (categories) out.categories = (categories.get(row.id) ?? []).map((c) => c.category);
    if (has("collection")) out.collection = (row.collection_id && collections?.get(row.collection_id)) || null;
    if (has("type")) out.type = (row.type_id && types?.get(row.type_id)) || null;
    if (channels) out.sales_channels = (channels.get(row.id) ?? []).map((l) => ({ id: l.sales_channel_id }));
    return out;
  });
}
