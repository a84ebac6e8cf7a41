import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend } from "@kasse/db";
import type { CategoryParent, ProductCategory } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { CategoryTree, splitCategoryQuery } from "../category-query";
import type { FastifyRequest } from "fastify";
import { parseFields, project, wants, type FieldSelection } from "../../http/fields";
import { StoreProductView, withGroupProducts } from "./catalog-context";
import { Answer, Fields, Filter, ListAnswer, ListQueryOf, listResponse, IdParams } from "../../http/schemas";
import { ProductCategoryView } from "@kasse/modules/product";

const ListCategories = ListQueryOf(
  { id: Id(), handle: Filter("handle"), name: Title(), parent_category_id: Id() },
  { q: Type.Optional(Title()), ...CategoryTree },
);
const RetrieveCategory = Type.Object(
  { fields: Type.Optional(Fields()), ...CategoryTree },
  { additionalProperties: false },
);

// The Store sees active, public categories only, and only such children.
const PUBLIC = { is_active: true, is_internal: false } as const;

interface StoreCategory {
  id: string;
  name: string;
  description: string;
  handle: string;
  rank: number;
  parent_category_id: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  category_children: StoreCategory[];
  parent_category?: StoreParent | null;
  products?: Array<Record<string, unknown>>;
}
/** A category's parent: its fields, and its own parent when `fields` walks further up. */
type StoreParent = Omit<StoreCategory, "category_children" | "parent_category" | "products"> & {
  parent_category?: StoreParent | null;
};

/** A store category, with its products when `fields` asks for them. */
const StoreCategoryView = Extend(ProductCategoryView, { products: Type.Array(StoreProductView) });
const base = (x: ProductCategory | CategoryParent): Omit<StoreParent, "parent_category"> => ({
  id: x.id,
  name: x.name,
  description: x.description,
  handle: x.handle,
  rank: x.rank,
  parent_category_id: x.parent_category_id,
  metadata: x.metadata,
  created_at: x.created_at,
  updated_at: x.updated_at,
});

/** A parent in the Store shape, with its own parents as far as they were read. */
const storeParent = (p: CategoryParent): StoreParent => ({
  ...base(p),
  ...(p.parent_category !== undefined
    ? { parent_category: p.parent_category ? storeParent(p.parent_category) : null }
    : {}),
});

/** The Store shape: the contract's `{id, name, handle, parent_category_id, category_children}` and Medusa's other public fields. */
function storeCategory(c: ProductCategory): StoreCategory {
  return {
    ...base(c),
    category_children: c.category_children.map(storeCategory),
    ...(c.parent_category !== undefined
      ? { parent_category: c.parent_category ? storeParent(c.parent_category) : null }
      : {}),
  };
}

/** The tree options of a Store read: the parents' parents up to the root when asked for, by name or through `fields`. */
const treeOptions = (
  query: { include_descendants_tree?: boolean; include_ancestors_tree?: boolean },
  selection: FieldSelection,
) => ({
  include_descendants_tree: query.include_descendants_tree,
  include_ancestors_tree: query.include_ancestors_tree || wants(selection, "parent_category.parent_category"),
  children: PUBLIC,
});

/** Store product categories: the public tree, by id or handle. */
export default async function productCategories(app: App): Promise<void> {
  const service = app.modules.product.categories;

  /** Adds the `products` that `fields` asks for: one query for the page. */
  async function withProducts(
    request: FastifyRequest,
    categories: StoreCategory[],
    selection: FieldSelection,
  ): Promise<StoreCategory[]> {
    if (!wants(selection, "products")) return categories;
    return withGroupProducts(app, request, "category_id", categories);
  }

  app.get(
    "/product-categories",
    { schema: { querystring: ListCategories, response: ListAnswer("product_categories", StoreCategoryView) } },
    async (request) => {
      const { filters, page, tree, fields } = splitCategoryQuery(request.query);
      const selection = parseFields(fields);
      const { items, count } = await service.list({ ...filters, ...PUBLIC }, page, treeOptions(tree, selection));
      return listResponse(
        "product_categories",
        project(await withProducts(request, items.map(storeCategory), selection), selection),
        count,
        page,
      );
    },
  );

  app.get(
    "/product-categories/:id",
    {
      schema: {
        params: IdParams,
        querystring: RetrieveCategory,
        response: Answer("product_category", StoreCategoryView),
      },
    },
    async (request) => {
      const { fields, ...tree } = request.query;
      const selection = parseFields(fields);
      const category = await service.retrieve(request.params.id, { ...treeOptions(tree, selection), filters: PUBLIC });
      const [shaped] = await withProducts(request, [storeCategory(category)], selection);
      return { product_category: project(shaped!, selection) };
    },
  );
}
