import { and, asc, eq, gte, ilike, inArray, isNull, like, max, ne, or, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  orderBy,
  transaction,
  type Db,
  type Paging,
  listPage,
  likePattern,
  existingIds,
  anyOf,
  liveRecords,
  textSearch,
  groupBy,
} from "@kasse/db";
import { nextFreeHandle, toHandle } from "./handle";
import {
  product,
  productCategory,
  productCategoryProduct,
  productCollection,
  productTag,
  productTags,
  productType,
  type CategoryCreate,
  type CategoryUpdate,
  type CollectionCreate,
  type CollectionUpdate,
  type ProductCategoryRow,
  type ProductCollectionRow,
  type ProductTagRow,
  type ProductTypeRow,
  type TagCreate,
  type TagUpdate,
} from "./schema";

type Page = Paging & { order?: string };

/** `%q%` for ILIKE with the wildcards in `q` escaped. */

/** A free handle for `title` among live rows of `column`'s table: `base`, `base-1`, ... */
async function generatedHandle(
  tx: Db,
  table: typeof productCollection | typeof productCategory,
  title: string,
  fallback: string,
): Promise<string> {
  const base = toHandle(title) || fallback;
  const rows = await tx
    .select({ handle: table.handle })
    .from(table)
    .where(and(isNull(table.deleted_at), or(eq(table.handle, base), like(table.handle, `${base}-%`))));
  return nextFreeHandle(
    base,
    rows.map((r) => r.handle),
  );
}

const byIdOrHandle = (table: typeof productCollection | typeof productCategory, idOrHandle: string) =>
  and(isNull(table.deleted_at), or(eq(table.id, idOrHandle), eq(table.handle, idOrHandle)));

/** Filters of collection lists. */
export interface CollectionFilters {
  id?: string[];
  handle?: string[];
  title?: string[];
  q?: string;
}

/** Product collections: CRUD; a collection is found by id or handle. */
export function createCollectionService(db: Db) {
  const rows = liveRecords(db, productCollection, "Product collection", {
    title: productCollection.title,
    handle: productCollection.handle,
  });
  const service = {
    async create(input: CollectionCreate): Promise<ProductCollectionRow> {
      const handle = input.handle || (await generatedHandle(db, productCollection, input.title, "collection"));
      return rows.insert(
        { id: generateId("pcol"), title: input.title, handle, metadata: input.metadata ?? null },
        `Product collection with handle: ${handle} already exists`,
      );
    },

    async retrieve(idOrHandle: string): Promise<ProductCollectionRow> {
      const [row] = await db.select().from(productCollection).where(byIdOrHandle(productCollection, idOrHandle));
      if (!row) throw errors.notFound(`Product collection with id: ${idOrHandle} was not found`);
      return row;
    },

    async list(filters: CollectionFilters, page: Page): Promise<{ items: ProductCollectionRow[]; count: number }> {
      const conditions = anyOf(filters, {
        id: productCollection.id,
        handle: productCollection.handle,
        title: productCollection.title,
      });
      if (filters.q)
        conditions.push(
          or(
            ilike(productCollection.title, likePattern(filters.q)),
            ilike(productCollection.handle, likePattern(filters.q)),
          )!,
        );
      return rows.list(conditions, page);
    },

    async update(id: string, input: CollectionUpdate): Promise<ProductCollectionRow> {
      const existing = await service.retrieve(id);
      if (Object.keys(input).length === 0) return existing;
      return rows.update(existing.id, input, `Product collection with handle: ${input.handle} already exists`);
    },

    /** Soft delete; its products are detached from it, as Medusa does. */
    async delete(id: string): Promise<void> {
      await transaction(db, async (t) => {
        const existing = await createCollectionService(t).retrieve(id);
        await t.update(product).set({ collection_id: null }).where(eq(product.collection_id, existing.id));
        await t.update(productCollection).set({ deleted_at: new Date() }).where(eq(productCollection.id, existing.id));
      });
    },

    /** The ids among `ids` that are live collections. */
    async existing(ids: string[]): Promise<Set<string>> {
      return rows.existing(ids);
    },
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

/** Filters of category lists. */
export interface CategoryFilters {
  id?: string[];
  handle?: string[];
  name?: string[];
  q?: string;
  /** `null` matches top-level categories. */
  parent_category_id?: Array<string | null>;
  is_active?: boolean;
  is_internal?: boolean;
}

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

/**
 * The ranks of a category's siblings, kept dense (0..n-1) over one handle: the transaction of the
 * write that moves the category.
 */
function siblingRanks(db: Db) {
  const live = isNull(productCategory.deleted_at);

  /** Closes the rank gap left at `rank` among the children of `parentId`. */
  async function close(parentId: string | null, rank: number): Promise<void> {
    await db
      .update(productCategory)
      .set({ rank: sql`${productCategory.rank} - 1` })
      .where(and(live, siblingsOf(parentId), gte(productCategory.rank, rank)));
  }

  /** Makes room at `rank` among the children of `parentId`; returns the rank used (at most the end). */
  async function open(parentId: string | null, rank: number | undefined, exceptId?: string): Promise<number> {
    const [last] = await db
      .select({ max: max(productCategory.rank) })
      .from(productCategory)
      .where(and(live, siblingsOf(parentId), exceptId ? ne(productCategory.id, exceptId) : undefined));
    const end = last?.max === null || last?.max === undefined ? 0 : last.max + 1;
    const at = rank === undefined ? end : Math.min(rank, end);
    if (at < end) {
      await db
        .update(productCategory)
        .set({ rank: sql`${productCategory.rank} + 1` })
        .where(
          and(
            live,
            siblingsOf(parentId),
            gte(productCategory.rank, at),
            exceptId ? ne(productCategory.id, exceptId) : undefined,
          ),
        );
    }
    return at;
  }

  return {
    /** Makes room for a new category at `rank` among the children of `parentId`; returns the rank used. */
    insert: (parentId: string | null, rank: number | undefined) => open(parentId, rank),
    /** Takes `category` out of its siblings and makes room for it at `rank` under `parentId`; returns the rank used. */
    async move(category: ProductCategoryRow, parentId: string | null, rank: number | undefined): Promise<number> {
      await close(category.parent_category_id, category.rank);
      return open(parentId, rank, category.id);
    },
    /** Closes the gap a removed `category` leaves among its siblings. */
    remove: (category: ProductCategoryRow) => close(category.parent_category_id, category.rank),
  };
}

/**
 * Product categories: a tree (`parent_category_id`, ordered by `rank` among siblings). Moving a
 * category under itself or one of its descendants is rejected; ranks stay dense (0..n-1).
 */
export function createCategoryService(db: Db) {
  const live = isNull(productCategory.deleted_at);

  /** Attaches children (or whole subtrees) and parents (or whole ancestries, read off `mpath`) to a page: two queries. */
  async function withTree(rows: ProductCategoryRow[], options: CategoryReadOptions): Promise<ProductCategory[]> {
    if (rows.length === 0) return [];
    const childFilter: SQL[] = [live];
    if (options.children?.is_active !== undefined)
      childFilter.push(eq(productCategory.is_active, options.children.is_active));
    if (options.children?.is_internal !== undefined)
      childFilter.push(eq(productCategory.is_internal, options.children.is_internal));
    const below = options.include_descendants_tree
      ? or(...rows.map((r) => like(productCategory.mpath, `${r.mpath}.%`)))!
      : inArray(
          productCategory.parent_category_id,
          rows.map((r) => r.id),
        );
    const parentIds = [
      ...new Set(
        options.include_ancestors_tree
          ? rows.flatMap((r) => r.mpath.split(".").slice(0, -1))
          : rows.map((r) => r.parent_category_id).filter((v): v is string => !!v),
      ),
    ];
    const [descendants, parents] = await Promise.all([
      db
        .select()
        .from(productCategory)
        .where(and(below, ...childFilter))
        .orderBy(asc(productCategory.rank), asc(productCategory.id)),
      parentIds.length
        ? db
            .select()
            .from(productCategory)
            .where(and(inArray(productCategory.id, parentIds), live))
        : Promise.resolve([]),
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
      return transaction(db, async (t) => {
        const id = generateId("pcat");
        const parentId = input.parent_category_id ?? null;
        let mpath = id;
        if (parentId) {
          const parent = await liveRecords(t, productCategory, "Product category").find(parentId);
          if (!parent) throw errors.invalidData(`Parent category with id: ${parentId} was not found`);
          mpath = `${parent.mpath}.${id}`;
        }
        const handle = input.handle || (await generatedHandle(t, productCategory, input.name, "category"));
        const rank = await siblingRanks(t).insert(parentId, input.rank);
        const row = await liveRecords(t, productCategory, "Product category").insert(
          {
            id,
            name: input.name,
            description: input.description ?? "",
            handle,
            mpath,
            is_active: input.is_active ?? false,
            is_internal: input.is_internal ?? false,
            rank,
            parent_category_id: parentId,
            metadata: input.metadata ?? null,
          },
          `Product category with handle: ${handle} already exists`,
        );
        return createCategoryService(t).retrieve(row.id, {});
      });
    },

    async retrieve(
      idOrHandle: string,
      options: CategoryReadOptions & { filters?: CategoryFilters } = {},
    ): Promise<ProductCategory> {
      const [row] = await db
        .select()
        .from(productCategory)
        .where(and(byIdOrHandle(productCategory, idOrHandle), ...categoryConditions(options.filters ?? {})));
      if (!row) throw errors.notFound(`Product category with id: ${idOrHandle} was not found`);
      return (await withTree([row], options))[0]!;
    },

    async list(
      filters: CategoryFilters,
      page: Page,
      options: CategoryReadOptions = {},
    ): Promise<{ items: ProductCategory[]; count: number }> {
      const where = and(...categoryConditions(filters));
      const columns = {
        created_at: productCategory.created_at,
        updated_at: productCategory.updated_at,
        name: productCategory.name,
        handle: productCategory.handle,
        rank: productCategory.rank,
      };
      const { items: rows, count: total } = await listPage(
        db,
        productCategory,
        where,
        orderBy(page.order, columns, productCategory.id, "rank"),
        page,
      );
      return { items: await withTree(rows, options), count: total };
    },

    async update(id: string, input: CategoryUpdate): Promise<ProductCategory> {
      return transaction(db, async (t) => {
        const existing = await liveRecords(t, productCategory, "Product category").lock(id);
        const { parent_category_id: rawParent, rank, ...fields } = input;
        const moving = rawParent !== undefined && (rawParent ?? null) !== existing.parent_category_id;
        const patch: Partial<ProductCategoryRow> = { ...fields };
        if (moving) {
          const parentId = rawParent ?? null;
          let mpath = existing.id;
          if (parentId) {
            const parent = await liveRecords(t, productCategory, "Product category").find(parentId);
            if (!parent) throw errors.invalidData(`Parent category with id: ${parentId} was not found`);
            if (parent.id === existing.id || parent.mpath.startsWith(`${existing.mpath}.`)) {
              throw errors.invalidData(
                `Product category ${existing.id} cannot be moved under itself or one of its descendants`,
              );
            }
            mpath = `${parent.mpath}.${existing.id}`;
          }
          patch.rank = await siblingRanks(t).move(existing, parentId, rank);
          patch.parent_category_id = parentId;
          patch.mpath = mpath;
          // Descendants keep their path below this category.
          await t
            .update(productCategory)
            .set({ mpath: sql`${mpath} || substr(${productCategory.mpath}, ${existing.mpath.length + 1})` })
            .where(like(productCategory.mpath, `${existing.mpath}.%`));
        } else if (rank !== undefined && rank !== existing.rank) {
          patch.rank = await siblingRanks(t).move(existing, existing.parent_category_id, rank);
        }
        if (Object.keys(patch).length > 0)
          await liveRecords(t, productCategory, "Product category").update(
            existing.id,
            patch,
            `Product category with handle: ${input.handle} already exists`,
          );
        return createCategoryService(t).retrieve(existing.id, {});
      });
    },

    /** Soft delete; a category with children cannot be deleted (as in Medusa). */
    async delete(id: string): Promise<void> {
      await transaction(db, async (t) => {
        const existing = await liveRecords(t, productCategory, "Product category").lock(id);
        const [child] = await t
          .select({ id: productCategory.id })
          .from(productCategory)
          .where(and(eq(productCategory.parent_category_id, id), live))
          .limit(1);
        if (child) throw errors.invalidData(`Deleting product category (${id}) with category children is not allowed`);
        await t.delete(productCategoryProduct).where(eq(productCategoryProduct.product_category_id, id));
        await t.update(productCategory).set({ deleted_at: new Date() }).where(eq(productCategory.id, id));
        await siblingRanks(t).remove(existing);
      });
    },

    /** The ids among `ids` that are live categories. */
    async existing(ids: string[]): Promise<Set<string>> {
      return existingIds(db, productCategory, ids, live);
    },

    /** `ids` plus every live descendant of them (for `include_descendants_tree` product filters). */
    async withDescendants(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const roots = await db
        .select({ mpath: productCategory.mpath })
        .from(productCategory)
        .where(and(inArray(productCategory.id, ids), live));
      if (roots.length === 0) return ids;
      const rows = await db
        .select({ id: productCategory.id })
        .from(productCategory)
        .where(and(live, or(...roots.map((r) => like(productCategory.mpath, `${r.mpath}.%`)))));
      return [...new Set([...ids, ...rows.map((r) => r.id)])];
    },
  };
  return service;
}

function siblingsOf(parentId: string | null): SQL {
  return parentId ? eq(productCategory.parent_category_id, parentId) : isNull(productCategory.parent_category_id);
}

function categoryConditions(filters: CategoryFilters): SQL[] {
  const out: SQL[] = [isNull(productCategory.deleted_at)];
  out.push(...anyOf(filters, { id: productCategory.id, handle: productCategory.handle, name: productCategory.name }));
  if (filters.is_active !== undefined) out.push(eq(productCategory.is_active, filters.is_active));
  if (filters.is_internal !== undefined) out.push(eq(productCategory.is_internal, filters.is_internal));
  if (filters.q)
    out.push(
      or(ilike(productCategory.name, likePattern(filters.q)), ilike(productCategory.handle, likePattern(filters.q)))!,
    );
  if (filters.parent_category_id?.length) {
    const ids = filters.parent_category_id.filter((v): v is string => v !== null);
    const top = filters.parent_category_id.includes(null);
    out.push(
      or(
        ...(ids.length ? [inArray(productCategory.parent_category_id, ids)] : []),
        ...(top ? [isNull(productCategory.parent_category_id)] : []),
      )!,
    );
  }
  return out;
}

/** Filters of tag and type lists. */
export interface ValueFilters {
  id?: string[];
  value?: string[];
  q?: string;
}

/**
 * Product tags and product types: records with a unique `value`. Deleting a tag unlinks it
 * from its products; deleting a type clears it on its products.
 */
// Tags and types have the same columns, so one implementation serves both tables.
function createValueService<Row extends ProductTagRow | ProductTypeRow>(
  db: Db,
  table: typeof productTag,
  prefix: string,
  label: string,
  detach: (id: string, tx: Db) => Promise<unknown>,
) {
  const rows = liveRecords(db, table, label, { value: table.value });
  const taken = (value: string | undefined) => `${label} with value: ${value} already exists`;
  const service = {
    create: async (input: TagCreate): Promise<Row> =>
      (await rows.insert(
        { id: generateId(prefix), value: input.value, metadata: input.metadata ?? null },
        taken(input.value),
      )) as Row,

    retrieve: async (id: string): Promise<Row> => (await rows.retrieve(id)) as Row,

    async list(filters: ValueFilters, page: Page): Promise<{ items: Row[]; count: number }> {
      const conditions = anyOf(filters, { id: table.id, value: table.value });
      conditions.push(...textSearch(filters.q, [table.value]));
      const { items, count } = await rows.list(conditions, page);
      return { items: items as Row[], count };
    },

    update: async (id: string, input: TagUpdate): Promise<Row> =>
      (await rows.update(id, input, taken(input.value))) as Row,

    /** Detaches the record from its products and soft-deletes it, together. */
    async delete(id: string): Promise<void> {
      await transaction(db, async (t) => {
        await detach(id, t);
        await liveRecords(t, table, label).softDelete(id);
      });
    },

    /** The ids among `ids` that are live records. */
    existing: (ids: string[]) => rows.existing(ids),
  };
  return service;
}

/** Product tags: CRUD over unique values. */
export const createTagService = (db: Db) =>
  createValueService<ProductTagRow>(db, productTag, "ptag", "Product tag", (id, tx) =>
    tx.delete(productTags).where(eq(productTags.product_tag_id, id)),
  );

/** Product types: CRUD over unique values. */
export const createTypeService = (db: Db) =>
  createValueService<ProductTypeRow>(
    db,
    productType as unknown as typeof productTag,
    "ptyp",
    "Product type",
    (id, tx) => tx.update(product).set({ type_id: null }).where(eq(product.type_id, id)),
  );
