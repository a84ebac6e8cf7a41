import { definitions } from "@kasse/workflows";
import type { ProductCreate, ProductSnapshot, ProductUpdate, VariantCreate, VariantUpdate } from "./shapes";
import type { ProductService, ProductWrite } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { product: ProductService };

const { step } = definitions<StepModules>();

/** Products to create, update (nested `options`/`variants` replace their sets) and soft-delete, in that order. */
export interface ProductWrites {
  create?: ProductCreate[];
  update?: Array<{ id: string; input: ProductUpdate }>;
  delete?: string[];
}

/** What a write did to variants: the pricing and inventory steps that follow carry it over. */
export type VariantWrites = Omit<ProductWrite, "id">;

/** How a product step is undone: the products it created go, the ones it changed are put back. */
interface ProductUndo {
  created: string[];
  before: ProductSnapshot;
}

/**
 * Creates, updates and deletes products with their options, variants, images and links (one
 * `product.created`, `product.updated` or `product.deleted` each, released with the workflow).
 * The products it changes are read first, every row of theirs, so compensation puts them back
 * exactly; the ones it created are deleted (soft: invisible to every read, handles and skus freed).
 * The snapshot is what the products were, so a write to the same products landing between this step
 * and its compensation (the pricing and inventory steps' time) is undone with it.
 * Returns the ids in input order and the variant writes.
 */
export const writeProductsStep = step("write-products", {
  invoke: async (input: ProductWrites, ctx) => {
    const { product } = ctx.modules;
    const before = await product.snapshot([...(input.update ?? []).map((u) => u.id), ...(input.delete ?? [])]);
    const variants: VariantWrites = { created: [], updated: [], deleted: [] };
    const created: string[] = [];
    for (const create of input.create ?? []) {
      const write = await product.create(create);
      await ctx.emit("product.created", { id: write.id });
      variants.created.push(...write.created);
      created.push(write.id);
    }
    for (const { id, input: update } of input.update ?? []) {
      const write = await product.update(id, update);
      await ctx.emit("product.updated", { id });
      variants.created.push(...write.created);
      variants.updated.push(...write.updated);
      variants.deleted.push(...write.deleted);
    }
    const deleted = input.delete ?? [];
    if (deleted.length) {
      variants.deleted.push(...(await product.delete(deleted)).variantIds);
      for (const id of deleted) await ctx.emit("product.deleted", { id });
    }
    const output = { created, updated: (input.update ?? []).map((u) => u.id), deleted, variants };
    return { output, compensateInput: { created, before } satisfies ProductUndo };
  },
  compensate: async (undo: ProductUndo, ctx) => {
    await ctx.modules.product.delete(undo.created);
    await ctx.modules.product.restore(undo.before);
  },
});

/** Variants of one product to add, change (prices too, when given) and remove, in that order. */
export interface ProductVariantWrites {
  product_id: string;
  create?: VariantCreate[];
  update?: Array<{ id: string; input: VariantUpdate }>;
  delete?: string[];
}

/**
 * Adds, changes and removes variants of one product (`product.updated`, released with the
 * workflow). Compensation puts the product back as it was read before, every row of it.
 */
export const writeProductVariantsStep = step("write-product-variants", {
  invoke: async (input: ProductVariantWrites, ctx) => {
    const { product } = ctx.modules;
    const before = await product.snapshot([input.product_id]);
    const variants: VariantWrites = { created: [], updated: [], deleted: [] };
    if (input.create?.length) variants.created.push(...(await product.createVariants(input.product_id, input.create)));
    for (const { id, input: update } of input.update ?? [])
      variants.updated.push(await product.updateVariant(input.product_id, id, update));
    for (const id of input.delete ?? []) {
      await product.deleteVariant(input.product_id, id);
      variants.deleted.push(id);
    }
    await ctx.emit("product.updated", { id: input.product_id });
    return { output: variants, compensateInput: before };
  },
  compensate: async (before: ProductSnapshot, ctx) => {
    await ctx.modules.product.restore(before);
  },
});
