import { errors, generateId } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging, type ListFilters } from "@kasse/db";
import { generatedHandle } from "./handle";
import { productQueries as q, type CategoryFilters, type CollectionFilters } from "./queries";
import type { ProductCategoryRow, ProductCollectionRow, ProductTagRow, ProductTypeRow } from "./schema";
import type {
  CategoryCreate,
  CategoryUpdate,
  CollectionCreate,
  CollectionUpdate,
  TagCreate,
  TagUpdate,
} from "./shapes";

export type { CategoryFilters, CollectionFilters };

/** Product collections: CRUD; a collection is found by id or handle. */
export function createCollectionService() {
  const rows = q.collections;
  const service = {
    async create(input: CollectionCreate): Promise<ProductCollectionRow> {
      const handle = input.handle || (await generatedHandle(q.collectionHandlesLike, input.title, "collection"));
      return rows.insert(
        { id: generateId("pcol"), title: input.title, handle, metadata: input.metadata ?? null },
        `Product collection with handle: ${handle} already exists`,
      );
    },

    async retrieve(idOrHandle: string): Promise<ProductCollectionRow> {
      const row = await rows.byIdOrHandle({ key: idOrHandle });
      if (!row) throw rows.notFound(idOrHandle);
      return row;
    },

    list: rows.list,

    async update(id: string, input: CollectionUpdate): Promise<ProductCollectionRow> {
      const existing = await service.retrieve(id);
      if (Object.keys(input).length === 0) return existing;
      return rows.update(existing.id, input, `Product collection with handle: ${input.handle} already exists`);
    },

    /** Soft delete; its products are detached from it, as Medusa does. */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        const existing = await service.retrieve(id);
        await q.detachCollection({ id: existing.id, updated_at: new Date() });
        await rows.softDelete(existing.id);
      });
    },

    /** The ids among `ids` that are live collections. */
    existing: rows.existing,
  };
  return service;
}

/** A category with its tree neighbours, as Medusa's Admin and Store APIs show it. */
export type ProductCategory = ProductCategoryRow & {
  category_children: ProductCategory[];
  parent_category?: CategoryParent | null;
};

/** A category's parent, and with `include_ancestors_tree` its own parent up to the root. */
export type CategoryParent = ProductCategoryRow & { parent_category?: CategoryParent | null };

/**
 * Options of category reads: `include_descendants_tree` nests every descendant, else direct
 * children; `include_ancestors_tree` nests each parent's parent up to the root, else the parent alone.
 */
export interface CategoryReadOptions {
  include_descendants_tree?: boolean;
  include_ancestors_tree?: boolean;
  /** Restrict the children shown (the Store shows only active, public ones). */
  children?: { is_active?: boolean; is_internal?: boolean };
}

/** The ranks of a category's siblings, kept dense (0..n-1) by the write that moves the category. */
const siblingRanks = {
  /** Makes room at `rank` among the children of `parentId`; returns the rank used (at most the end). */
  async open(parentId: string | null, rank: number | undefined, exceptId?: string): Promise<number> {
    const last = await q.maxSiblingRank(parentId, exceptId);
    const end = last === null ? 0 : last + 1;
    const at = rank === undefined ? end : Math.min(rank, end);
    if (at < end) await q.shiftSiblingRanks(parentId, at, 1, exceptId);
    return at;
  },
  /** Takes `category` out of its siblings and makes room for it at `rank` under `parentId`; returns the rank used. */
  async move(category: ProductCategoryRow, parentId: string | null, rank: number | undefined): Promise<number> {
    await q.shiftSiblingRanks(category.parent_category_id, category.rank, -1);
    return siblingRanks.open(parentId, rank, category.id);
  },
  /** Closes the gap a removed `category` leaves among its siblings. */
  remove: (category: ProductCategoryRow) => q.shiftSiblingRanks(category.parent_category_id, category.rank, -1),
};

/** The live category `id` that a category is put under; 400 when there is none. */
async function parentCategory(id: string): Promise<ProductCategoryRow> {
  const parent = await q.categories.find(id);
  if (!parent) throw errors.invalidData(`Parent category with id: ${id} was not found`);
  return parent;
}

/**
 * Product categories: a tree (`parent_category_id`, ordered by `rank` among siblings). Moving a
 * category under itself or one of its descendants is rejected; ranks stay dense (0..n-1).
 */
export function createCategoryService() {
  /** Attaches children (or whole subtrees) and parents (or whole ancestries, read off `mpath`) to a page: two queries. */
  async function withTree(rows: ProductCategoryRow[], options: CategoryReadOptions): Promise<ProductCategory[]> {
    if (rows.length === 0) return [];
    const parentIds = [
      ...new Set(
        options.include_ancestors_tree
          ? rows.flatMap((r) => r.mpath.split(".").slice(0, -1))
          : rows.map((r) => r.parent_category_id).filter((v): v is string => !!v),
      ),
    ];
    const [descendants, parents] = await Promise.all([
      q.categoriesBelow(rows, options.include_descendants_tree === true, options.children),
      parentIds.length ? q.categoriesByIds(parentIds) : Promise.resolve([]),
    ]);
    const byParent = groupBy(descendants, (d) => d.parent_category_id ?? "");
    const build = (row: ProductCategoryRow): ProductCategory => ({
      ...row,
      category_children: (byParent.get(row.id) ?? []).map((c) =>
        options.include_descendants_tree ? build(c) : { ...c, category_children: [] },
      ),
    });
    const parentById = new Map(parents.map((p) => [p.id, p]));
    const parentOf = (id: string | null): CategoryParent | null => {
      const parent = id ? parentById.get(id) : undefined;
      if (!parent) return null;
      return options.include_ancestors_tree
        ? { ...parent, parent_category: parentOf(parent.parent_category_id) }
        : parent;
    };
    return rows.map((row) => ({ ...build(row), parent_category: parentOf(row.parent_category_id) }));
  }

  const service = {
    async create(input: CategoryCreate): Promise<ProductCategory> {
      return transaction(async () => {
        const id = generateId("pcat");
        const parentId = input.parent_category_id ?? null;
        let mpath = id;
        if (parentId) mpath = `${(await parentCategory(parentId)).mpath}.${id}`;
        const handle = input.handle || (await generatedHandle(q.categoryHandlesLike, input.name, "category"));
        const rank = await siblingRanks.open(parentId, input.rank);
        const row = await q.categories.insert(
          { ...input, id, handle, mpath, rank, parent_category_id: parentId },
          `Product category with handle: ${handle} already exists`,
        );
        return service.retrieve(row.id, {});
      });
    },

    async retrieve(
      idOrHandle: string,
      options: CategoryReadOptions & { filters?: CategoryFilters } = {},
    ): Promise<ProductCategory> {
      const row = await q.categoryByIdOrHandle(idOrHandle, options.filters ?? {});
      if (!row) throw errors.notFound(`Product category with id: ${idOrHandle} was not found`);
      return (await withTree([row], options))[0]!;
    },

    list: (filters: CategoryFilters, page: ListPaging, options: CategoryReadOptions = {}) =>
      viewPage(q.categoriesPage(filters, page), (rows) => withTree(rows, options)),

    async update(id: string, input: CategoryUpdate): Promise<ProductCategory> {
      return transaction(async () => {
        const existing = await q.categories.lock(id);
        const { parent_category_id: rawParent, rank, ...fields } = input;
        const moving = rawParent !== undefined && (rawParent ?? null) !== existing.parent_category_id;
        const patch: Partial<ProductCategoryRow> = { ...fields };
        if (moving) {
          const parentId = rawParent ?? null;
          let mpath = existing.id;
          if (parentId) {
            const parent = await parentCategory(parentId);
            if (parent.id === existing.id || parent.mpath.startsWith(`${existing.mpath}.`)) {
              throw errors.invalidData(
                `Product category ${existing.id} cannot be moved under itself or one of its descendants`,
              );
            }
            mpath = `${parent.mpath}.${existing.id}`;
          }
          patch.rank = await siblingRanks.move(existing, parentId, rank);
          patch.parent_category_id = parentId;
          patch.mpath = mpath;
          // Descendants keep their path below this category.
          await q.moveDescendants(existing.mpath, mpath);
        } else if (rank !== undefined && rank !== existing.rank) {
          patch.rank = await siblingRanks.move(existing, existing.parent_category_id, rank);
        }
        if (Object.keys(patch).length > 0)
          await q.categories.update(existing.id, patch, `Product category with handle: ${input.handle} already exists`);
        return service.retrieve(existing.id, {});
      });
    },

    /** Soft delete; a category with children cannot be deleted (as in Medusa). */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        const existing = await q.categories.lock(id);
        const child = await q.childOfCategory({ id });
        if (child) throw errors.invalidData(`Deleting product category (${id}) with category children is not allowed`);
        await q.unlinkCategory({ id });
        await q.categories.softDelete(id);
        await siblingRanks.remove(existing);
      });
    },

    /** The ids among `ids` that are live categories. */
    existing: q.categories.existing,

    /** `ids` plus every live descendant of them (for `include_descendants_tree` product filters). */
    async withDescendants(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const roots = await q.categoriesByIds(ids);
      if (roots.length === 0) return ids;
      const rows = await q.categoriesBelow(roots, true);
      return [...new Set([...ids, ...rows.map((r) => r.id)])];
    },
  };
  return service;
}

/** Filters of tag and type lists. */
export interface ValueFilters extends ListFilters {
  value?: string[];
}

/**
 * Product tags and product types: records with a unique `value`. Deleting a tag unlinks it
 * from its products; deleting a type clears it on its products.
 */
function createValueService<Row extends ProductTagRow | ProductTypeRow>(
  kind: "tag" | "type",
  prefix: string,
  label: string,
  detach: (id: string) => Promise<unknown>,
) {
  const rows = q.valueRecords[kind];
  const taken = (value: string | undefined) => `${label} with value: ${value} already exists`;
  const service = {
    create: async (input: TagCreate): Promise<Row> =>
      (await rows.insert({ ...input, id: generateId(prefix) }, taken(input.value))) as Row,

    retrieve: async (id: string): Promise<Row> => (await rows.retrieve(id)) as Row,

    list: (filters: ValueFilters, page: ListPaging) =>
      viewPage(rows.list(q.valueConditions(kind, filters), page), (items) => items as Row[]),

    update: async (id: string, input: TagUpdate): Promise<Row> =>
      (await rows.update(id, input, taken(input.value))) as Row,

    /** Detaches the record from its products and soft-deletes it, together. */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        await detach(id);
        await rows.softDelete(id);
      });
    },

    /** The ids among `ids` that are live records. */
    existing: rows.existing,
  };
  return service;
}

/** Product tags: CRUD over unique values. */
export const createTagService = () =>
  createValueService<ProductTagRow>("tag", "ptag", "Product tag", (id) => q.unlinkTag({ id }));

/** Product types: CRUD over unique values. */
export const createTypeService = () =>
  createValueService<ProductTypeRow>("type", "ptyp", "Product type", (id) =>
    q.clearType({ id, updated_at: new Date() }),
  );
