import { errors, generateId } from "@kasse/core";
import { isUniqueViolation, groupBy, transaction, viewPage, type ListPaging, type ListFilters } from "@kasse/db";
import { createCategoryService, createCollectionService, createTagService, createTypeService } from "./catalog";
import { generatedHandle } from "./handle";
import { productQueries as q } from "./queries";
import {
  attachRelations,
  loadOptions,
  loadVariantOptions,
  optionValues,
  type Product,
  type ProductOption,
  type ProductVariant,
} from "./reads";
import {
  PRODUCT_RELATIONS,
  type VariantImagesBatch,
  type OptionCreate,
  type OptionUpdate,
  type OptionUpsert,
  type ProductCreate,
  type ProductFilters,
  type ProductRelation,
  type ProductUpdate,
  type VariantCreate,
  type VariantUpdate,
  type VariantUpsert,
} from "./shapes";
import { assertUniqueCombinations, insertVariants, updateVariantRow, type VariantWrite } from "./variants";

/** A variant as a cart line snapshots it ({@link ProductService.variantForSale}). */
export type VariantForSale = NonNullable<Awaited<ReturnType<typeof q.variantForSale>>>;

/**
 * Whether a cart's line may still be sold: its variant's product status (null when the product is
 * deleted) and channel membership ({@link ProductService.saleStatus}).
 */
export type VariantSaleStatus = Awaited<ReturnType<typeof q.saleStatus>>[number];

/** What a product write did to variants: flows set prices and inventory from it. */
export interface ProductWrite {
  id: string;
  created: VariantWrite[];
  updated: VariantWrite[];
  /** Ids of variants removed (soft-deleted) by the write. */
  deleted: string[];
}

/** Options of product reads. */
export interface ProductReadOptions {
  /** Relations to load (default: all), each with one query for the whole page. */
  relations?: Iterable<ProductRelation>;
  /** Extra conditions a retrieve must meet (the Store passes `status` and `sales_channel_id`). */
  filters?: ProductFilters;
}

/** Filters of variant lists. */
export interface VariantFilters extends ListFilters {
  product_id?: string[];
  sku?: string[];
}

/**
 * Products with their options, variants, images and links to collections, types, tags,
 * categories and sales channels, plus the catalog records themselves (`collections`,
 * `categories`, `tags`, `types`). Reads load each relation with one query for a whole page.
 * Prices and inventory are other modules': flows pass variant writes on to them.
 * @example
 * const products = createProductService();
 * const { items } = await products.list({ status: ["published"], q: "shirt" }, { limit: 20, offset: 0 }, { relations: ["variants", "images"] });
 */
export function createProductService() {
  const collections = createCollectionService();
  const categories = createCategoryService();
  const tags = createTagService();
  const types = createTypeService();

  /** The categories `filters.category_id` stands for: with their descendants when asked. */
  async function categoryIds(filters: ProductFilters): Promise<string[] | undefined> {
    if (!filters.category_id?.length) return undefined;
    return filters.include_category_descendants
      ? await categories.withDescendants(filters.category_id)
      : filters.category_id;
  }

  /** Rejects links to collections, types, tags or categories that do not exist (400, naming the id). */
  async function assertLinks(
    input: Pick<ProductUpdate, "collection_id" | "type_id" | "tags" | "categories">,
  ): Promise<void> {
    const checks: Array<[string, string[], (ids: string[]) => Promise<Set<string>>]> = [
      ["Product collection", input.collection_id ? [input.collection_id] : [], collections.existing],
      ["Product type", input.type_id ? [input.type_id] : [], types.existing],
      ["Product tag", idsOf(input.tags ?? []), tags.existing],
      ["Product category", idsOf(input.categories ?? []), categories.existing],
    ];
    for (const [label, ids, existing] of checks) {
      if (ids.length === 0) continue;
      const found = await existing(ids);
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw errors.invalidData(`${label} with id: ${missing.join(", ")} was not found`);
    }
  }

  /** An explicit handle must be free (409); a generated one takes the first free suffix. */
  async function handleFor(explicit: string | undefined, title: string, exceptId?: string): Promise<string> {
    if (!explicit) return generatedHandle(q.productHandlesLike, title, "product");
    const taken = await q.productWithHandle({ handle: explicit });
    if (taken && taken.id !== exceptId) throw errors.conflict(`Product with handle: ${explicit} already exists`);
    return explicit;
  }

  async function replaceLinks(
    productId: string,
    input: Pick<ProductUpdate, "tags" | "categories" | "images">,
  ): Promise<void> {
    if (input.tags) await q.setLinks.tags(productId, idsOf(input.tags));
    if (input.categories) await q.setLinks.categories(productId, idsOf(input.categories));
    if (input.images) {
      // Images named by the id of one of the product's images are kept in place (their variant links
      // survive); any other image is new (the dashboard names a fresh upload with an id of its own).
      const existing = new Set((await q.imageIdsOf({ id: productId })).map((r) => r.id));
      const keptId = (image: { id?: string }) => (image.id && existing.has(image.id) ? image.id : undefined);
      const kept = new Set(input.images.flatMap((image) => keptId(image) ?? []));
      const gone = [...existing].filter((id) => !kept.has(id));
      if (gone.length) await q.deleteImages({ ids: gone });
      const rows = input.images.map((image, rank) => ({
        id: keptId(image) ?? generateId("img"),
        product_id: productId,
        url: image.url,
        rank,
        metadata: image.metadata ?? null,
      }));
      if (rows.length) await q.upsertImages(rows);
    }
  }

  /** Inserts options with their values. */
  async function insertOptions(
    productId: string,
    inputs: Array<OptionCreate & { rank?: number }>,
    firstRank = 0,
  ): Promise<void> {
    const titles = new Set<string>();
    for (const o of inputs) {
      if (titles.has(o.title)) throw errors.invalidData(`Option '${o.title}' is given twice`);
      titles.add(o.title);
    }
    if (inputs.length === 0) return;
    const options = inputs.map((o, i) => ({
      id: generateId("opt"),
      product_id: productId,
      title: o.title,
      rank: o.rank ?? firstRank + i,
      metadata: o.metadata ?? null,
    }));
    await q.insertOptionRows(options);
    const values = inputs.flatMap((o, i) =>
      [...new Set(o.values)].map((value, rank) => ({
        id: generateId("optval"),
        option_id: options[i]!.id,
        value,
        rank,
      })),
    );
    await q.insertOptionValueRows(values);
  }

  /** Sets an option's value list: kept values stay, missing ones go (and leave their variants). */
  async function setOptionValues(optionId: string, values: string[]): Promise<void> {
    const wanted = [...new Set(values)];
    const current = await q.liveValuesOfOption({ id: optionId });
    const gone = current.filter((v) => !wanted.includes(v.value)).map((v) => v.id);
    if (gone.length) {
      await q.unlinkValues({ ids: gone });
      await q.softDelete.values({ ids: gone, now: new Date() });
    }
    // Values take the order given: kept ones are re-ranked, new ones inserted at their place.
    for (const value of current.filter((v) => wanted.includes(v.value))) {
      const rank = wanted.indexOf(value.value);
      if (value.rank !== rank) await q.rankValue({ id: value.id, rank, updated_at: new Date() });
    }
    const fresh = wanted.filter((value) => !current.some((v) => v.value === value));
    if (fresh.length) {
      await q.insertOptionValueRows(
        fresh.map((value) => ({ id: generateId("optval"), option_id: optionId, value, rank: wanted.indexOf(value) })),
      );
    }
  }

  /** Soft-deletes options with their values and unlinks them from variants. */
  async function removeOptions(optionIds: string[]): Promise<void> {
    if (optionIds.length === 0) return;
    await q.unlinkOptionValues({ ids: optionIds });
    const now = new Date();
    await q.softDeleteValuesOfOptions({ ids: optionIds, now });
    await q.softDelete.options({ ids: optionIds, now });
  }

  /** Upserts a product's option set: present kept/updated, missing removed (Medusa's replace semantics). */
  async function replaceOptions(productId: string, inputs: OptionUpsert[]): Promise<void> {
    const current = await productOptions(productId);
    const keep = new Set<string>();
    const titles = new Set<string>();
    const creates: Array<OptionCreate & { rank: number }> = [];
    for (const [rank, input] of inputs.entries()) {
      if (titles.has(input.title)) throw errors.invalidData(`Option '${input.title}' is given twice`);
      titles.add(input.title);
      const match = input.id ? current.find((o) => o.id === input.id) : current.find((o) => o.title === input.title);
      if (input.id && !match)
        throw errors.invalidData(`Option with id: ${input.id} does not belong to product ${productId}`);
      if (!match) {
        creates.push({ title: input.title, values: input.values, metadata: input.metadata, rank });
        continue;
      }
      keep.add(match.id);
      if (match.title !== input.title || match.rank !== rank || input.metadata !== undefined) {
        await q.updateOption(match.id, {
          title: input.title,
          rank,
          ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        });
      }
      await setOptionValues(match.id, input.values);
    }
    await removeOptions(current.filter((o) => !keep.has(o.id)).map((o) => o.id));
    await insertOptions(productId, creates);
  }

  async function nextRank(productId: string): Promise<number> {
    return ((await q.maxVariantRank({ id: productId }))?.max ?? -1) + 1;
  }

  /** Soft-deletes variants and drops their option links. */
  async function removeVariants(variantIds: string[]): Promise<void> {
    if (variantIds.length === 0) return;
    await q.unlinkVariantsOptions({ ids: variantIds });
    await q.softDelete.variants({ ids: variantIds, now: new Date() });
  }

  /** Upserts a product's variant set: with `id` updated, without created, missing removed. */
  async function replaceVariants(productId: string, inputs: VariantUpsert[]): Promise<Omit<ProductWrite, "id">> {
    const current = await q.variantIdsOf({ ids: [productId] });
    const ids = new Set(current.map((v) => v.id));
    const options = await productOptions(productId);
    const updated: VariantWrite[] = [];
    const creates: Array<VariantCreate | (VariantUpsert & { title: string })> = [];
    for (const input of inputs) {
      const { id, options: mapping, prices, ...fields } = input;
      if (id) {
        if (!ids.has(id)) throw errors.invalidData(`Variant with id: ${id} does not belong to product ${productId}`);
        updated.push(await updateVariantRow(id, fields, mapping, options, prices));
      } else {
        if (!fields.title) throw errors.invalidData("A new variant requires a title");
        creates.push({ ...fields, title: fields.title, options: mapping, prices: prices ?? [] });
      }
    }
    const keep = new Set(inputs.map((v) => v.id).filter(Boolean));
    const deleted = [...ids].filter((id) => !keep.has(id));
    await removeVariants(deleted);
    const created = await insertVariants(productId, creates, options, await nextRank(productId));
    return { created, updated, deleted };
  }

  async function productOptions(productId: string): Promise<ProductOption[]> {
    return (await loadOptions([productId])).get(productId) ?? [];
  }

  const service = {
    collections,
    categories,
    tags,
    types,

    list: async (filters: ProductFilters, page: ListPaging, options: ProductReadOptions = {}) =>
      viewPage(q.productsPage(filters, await categoryIds(filters), page), (rows) =>
        attachRelations(rows, new Set(options.relations ?? PRODUCT_RELATIONS)),
      ),

    /** Whether any product exists: reads at most one id (the demo store is seeded only into an empty catalog). */
    any: q.products.any,

    /**
     * Options (with their values) of the products matching `filters.product`, by title or id.
     * Every Kasse option belongs to one product (Medusa's `is_exclusive: true`). Three queries.
     */
    listOptions: async (
      filters: { product: ProductFilters; id?: string[]; title?: string[]; q?: string },
      page: ListPaging,
    ) =>
      viewPage(q.optionsPage(filters, await categoryIds(filters.product), page), async (rows) => {
        const values = await optionValues(rows.map((r) => r.id));
        return rows.map((r): ProductOption => ({ ...r, values: values.get(r.id) ?? [] }));
      }),

    /** A live product by id or handle, with `relations` (default all). */
    async retrieve(idOrHandle: string, options: ProductReadOptions = {}): Promise<Product> {
      const filters = options.filters ?? {};
      const row = await q.productByIdOrHandle(idOrHandle, filters, await categoryIds(filters));
      if (!row) throw errors.notFound(`Product with id: ${idOrHandle} was not found`);
      return (await attachRelations([row], new Set(options.relations ?? PRODUCT_RELATIONS)))[0]!;
    },

    /**
     * What a cart line needs of a variant, in one statement: the live variant, its live product
     * (null once deleted), and the product's tag ids (by value), category ids (by rank) and sales
     * channel ids, as `list` orders them; null when there is no such variant.
     */
    async variantForSale(variantId: string): Promise<VariantForSale | null> {
      return (await q.variantForSale({ id: variantId })) ?? null;
    },

    /**
     * For each live variant of `ids` (a deleted one is absent): its product's status (null when the
     * product is deleted) and whether the product is in `salesChannelId`. One statement.
     */
    async saleStatus(ids: string[], salesChannelId: string): Promise<VariantSaleStatus[]> {
      return ids.length ? q.saleStatus({ ids, channel: salesChannelId }) : [];
    },

    /** Whether each live variant of `ids` manages inventory and allows backorders (checkout's reservations), in one statement. */
    inventoryFlags: async (ids: string[]) => (ids.length ? q.variantFlags({ ids }) : []),

    listVariants: (filters: VariantFilters, page: ListPaging = { limit: 1000, offset: 0 }) =>
      viewPage(q.variantsPage(filters, page), async (rows) => {
        const values = await loadVariantOptions(rows.map((r) => r.id));
        return rows.map((r): ProductVariant => ({ ...r, options: values.get(r.id) ?? [] }));
      }),

    /**
     * Shows a variant with some of its product's images and not others (Medusa's variant images):
     * 404 for a variant not of the product, 400 naming images that are not the product's.
     */
    async batchVariantImages(
      productId: string,
      variantId: string,
      input: VariantImagesBatch,
    ): Promise<{ added: string[]; removed: string[] }> {
      return transaction(async () => {
        await service.retrieveVariant(productId, variantId);
        const add = [...new Set(input.add ?? [])];
        const remove = [...new Set(input.remove ?? [])];
        const named = [...new Set([...add, ...remove])];
        const own = new Set(
          named.length ? (await q.imagesOfProductAmong({ product: productId, ids: named })).map((r) => r.id) : [],
        );
        const foreign = named.filter((id) => !own.has(id));
        if (foreign.length)
          throw errors.invalidData(`Images ${foreign.join(", ")} are not images of product ${productId}`);
        if (remove.length) await q.unlinkVariantImages({ variant: variantId, ids: remove });
        if (add.length) await q.linkVariantImages(add.map((image_id) => ({ variant_id: variantId, image_id })));
        return { added: add, removed: remove };
      });
    },

    /** The images each of `variantIds` is shown with (one query), in the product's image order. */
    async variantImages(variantIds: string[]): Promise<Map<string, Array<{ id: string; url: string; rank: number }>>> {
      if (variantIds.length === 0) return new Map();
      return groupBy(await q.variantImagesOf({ ids: variantIds }), (r) => r.variant_id, {
        value: ({ variant_id: _variant, ...image }) => image,
      });
    },

    /** A live variant of a live product. */
    async retrieveVariant(productId: string, variantId: string): Promise<ProductVariant> {
      const { items } = await service.listVariants(
        { id: [variantId], product_id: [productId] },
        { limit: 1, offset: 0 },
      );
      if (!items[0]) throw errors.notFound(`Variant with id: ${variantId} was not found`);
      return items[0];
    },

    /** Creates a product with options, variants, images and links; sales channel ids must be checked by the caller. */
    async create(input: ProductCreate): Promise<ProductWrite> {
      await assertLinks(input);
      const { fields, handle: explicit, links, options, variants, sales_channels } = splitProductInput(input);
      const id = generateId("prod");
      // A concurrent create can take a generated handle between the check and the insert: the
      // insert runs in a savepoint and a generated handle is recomputed; an explicit one is 409.
      for (let attempt = 1; ; attempt++) {
        const handle = await handleFor(explicit, input.title);
        try {
          await transaction(() => q.products.insert({ ...fields, id, handle }), { savepoint: true });
          break;
        } catch (error) {
          if (!isUniqueViolation(error, "product_handle_uq")) throw error;
          if (explicit || attempt >= 5) throw errors.conflict(`Product with handle: ${handle} already exists`);
        }
      }
      await replaceLinks(id, links);
      await insertOptions(id, options);
      const created = await insertVariants(id, variants ?? [], await productOptions(id), 0);
      if (sales_channels?.length) await service.setSalesChannels(id, idsOf(sales_channels));
      await assertUniqueCombinations(id);
      return { id, created, updated: [], deleted: [] };
    },

    /** Partial update; `options`/`variants` replace their sets (present kept/updated, missing removed). */
    async update(id: string, input: ProductUpdate): Promise<ProductWrite> {
      const existing = await q.products.lock(id);
      await assertLinks(input);
      const { fields, handle, links, options, variants, sales_channels } = splitProductInput(input);
      const patch: Record<string, unknown> = { ...fields };
      if (handle !== undefined && handle !== existing.handle)
        patch.handle = await handleFor(handle, existing.title, id);
      if (Object.keys(patch).length)
        await q.products.update(id, patch, `Product with handle: ${handle} already exists`);
      else await q.touchProduct({ id, updated_at: new Date() });
      await replaceLinks(id, links);
      if (sales_channels) await service.setSalesChannels(id, idsOf(sales_channels));
      if (options) await replaceOptions(id, options);
      const result = variants ? await replaceVariants(id, variants) : { created: [], updated: [], deleted: [] };
      await assertUniqueCombinations(id);
      return { id, ...result };
    },

    /** Soft-deletes products with their variants and options; their handles and skus become free. */
    async delete(ids: string[]): Promise<{ variantIds: string[] }> {
      if (ids.length === 0) return { variantIds: [] };
      const rows = await q.lockProducts({ ids });
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw errors.notFound(`Product with id: ${missing.join(", ")} was not found`);
      const variantIds = (await q.variantIdsOf({ ids })).map((v) => v.id);
      await removeVariants(variantIds);
      await removeOptions((await q.optionIdsOf({ ids })).map((o) => o.id));
      await q.softDelete.products({ ids, now: new Date() });
      return { variantIds };
    },

    /**
     * The live products among `ids` with every row of theirs, locked for the write that follows:
     * what a saga step keeps to undo that write with {@link restore}.
     */
    snapshot: q.snapshotProducts,

    /** Puts products back as a {@link snapshot} read them (what a write added since goes). */
    restore: q.restoreProducts,

    /** Adds variants to a product. */
    async createVariants(productId: string, inputs: VariantCreate[]): Promise<VariantWrite[]> {
      await q.products.lock(productId);
      const created = await insertVariants(
        productId,
        inputs,
        await productOptions(productId),
        await nextRank(productId),
      );
      await assertUniqueCombinations(productId);
      return created;
    },

    async updateVariant(productId: string, variantId: string, input: VariantUpdate): Promise<VariantWrite> {
      await q.products.lock(productId);
      await service.retrieveVariant(productId, variantId);
      const { options: mapping, prices, ...fields } = input;
      const written = await updateVariantRow(variantId, fields, mapping, await productOptions(productId), prices);
      await assertUniqueCombinations(productId);
      return written;
    },

    async deleteVariant(productId: string, variantId: string): Promise<void> {
      await q.products.lock(productId);
      await service.retrieveVariant(productId, variantId);
      await removeVariants([variantId]);
    },

    async createOption(productId: string, input: OptionCreate): Promise<ProductOption> {
      await q.products.lock(productId);
      const current = await productOptions(productId);
      if (current.some((o) => o.title === input.title))
        throw errors.invalidData(`Product ${productId} already has an option '${input.title}'`);
      await insertOptions(productId, [input], Math.max(-1, ...current.map((o) => o.rank)) + 1);
      return (await productOptions(productId)).find((o) => o.title === input.title)!;
    },

    async updateOption(productId: string, optionId: string, input: OptionUpdate): Promise<ProductOption> {
      await q.products.lock(productId);
      const current = await productOptions(productId);
      const option = current.find((o) => o.id === optionId);
      if (!option) throw errors.notFound(`Product option with id: ${optionId} was not found`);
      if (input.title && input.title !== option.title && current.some((o) => o.title === input.title)) {
        throw errors.invalidData(`Product ${productId} already has an option '${input.title}'`);
      }
      const patch = {
        ...(input.title ? { title: input.title } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      };
      if (Object.keys(patch).length) await q.updateOption(optionId, patch);
      if (input.values) await setOptionValues(optionId, input.values);
      await assertUniqueCombinations(productId);
      return (await productOptions(productId)).find((o) => o.id === optionId)!;
    },

    async deleteOption(productId: string, optionId: string): Promise<void> {
      await q.products.lock(productId);
      const current = await productOptions(productId);
      if (!current.some((o) => o.id === optionId))
        throw errors.notFound(`Product option with id: ${optionId} was not found`);
      await removeOptions([optionId]);
    },

    /** Replaces a product's sales channel links (ids are checked by the caller: another module's). */
    setSalesChannels: q.setLinks.salesChannels,

    /** `POST /admin/sales-channels/{id}/products`: links and unlinks live products (unknown ids → 400). */
    async linkSalesChannelProducts(channelId: string, change: { add?: string[]; remove?: string[] }): Promise<void> {
      await transaction(() => linkChannelProducts(channelId, change));
    },

    /** The ids among `ids` that are live products. */
    existing: q.products.existing,
  };
  return service;
}

export type ProductService = ReturnType<typeof createProductService>;

/** Links and unlinks live products to a channel (unknown product ids → 400). */
async function linkChannelProducts(channelId: string, change: { add?: string[]; remove?: string[] }): Promise<void> {
  const add = [...new Set(change.add ?? [])];
  const remove = [...new Set(change.remove ?? [])];
  const named = [...new Set([...add, ...remove])];
  const found = await q.products.existing(named);
  const missing = named.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalidData(`Product with id: ${missing.join(", ")} was not found`);
  if (remove.length) await q.unlinkChannelProducts({ channel: channelId, ids: remove });
  if (add.length) await q.linkChannelProducts(add.map((product_id) => ({ product_id, sales_channel_id: channelId })));
}

/** The ids of the records a product write links to (`[{id}]`). */
const idsOf = (refs: Array<{ id: string }>): string[] => refs.map((r) => r.id);

/**
 * Splits a product write into the columns of the product row and the sets written beside it, so
 * that create and update agree on which fields belong to the row.
 */
function splitProductInput<T extends ProductCreate | ProductUpdate>(input: T): SplitInput<T> {
  const { options, variants, images, tags, categories, sales_channels, handle, ...fields } = input;
  return { fields, handle, links: { tags, categories, images }, options, variants, sales_channels };
}

type SetKeys = "options" | "variants" | "images" | "tags" | "categories" | "sales_channels" | "handle";
type SplitInput<T extends ProductCreate | ProductUpdate> = Pick<
  T,
  "handle" | "options" | "variants" | "sales_channels"
> & {
  fields: Omit<T, SetKeys>;
  links: Pick<T, "tags" | "categories" | "images">;
};
