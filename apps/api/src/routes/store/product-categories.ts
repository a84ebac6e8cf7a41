import { Type } from "@sinclair/typebox";
import { Extend, Id, Title } from "@kasse/db";
import type { ProductCategory } from "@kasse/modules/product";
import type { App } from "../../app";
import type { FastifyRequest } from "fastify";
import { parseFields, project, wants, type FieldSelection } from "../../http/fields";
import { productsByGroup, StoreProductView } from "./catalog-context";
import { Answer, Fields, Filter, ListAnswer, ListQueryOf, listResponse } from "../../http/schemas";
import { ProductCategoryView } from "@kasse/modules/product";

const Params = Type.Object({ id: Id() });
const ListCategories = ListQueryOf(
  { id: Id(), handle: Filter("handle"), name: Title(), parent_category_id: Id() },
  { q: Type.Optional(Title()), include_descendants_tree: Type.Optional(Type.Boolean()) },
);
const RetrieveCategory = Type.Object(
  { fields: Type.Optional(Fields()), include_descendants_tree: Type.Optional(Type.Boolean()) },
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
/** Longest parent chain followed (a guard: the tree is far shallower). */
const MAX_DEPTH = 50;

const base = (x: ProductCategory | NonNullable<ProductCategory["parent_category"]>): StoreParent => ({
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

/** The Store shape: the contract's `{id, name, handle, parent_category_id, category_children}` and Medusa's other public fields. */
function storeCategory(c: ProductCategory): StoreCategory {
  return {
    ...base(c),
    category_children: c.category_children.map(storeCategory),
    ...(c.parent_category !== undefined ? { parent_category: c.parent_category ? base(c.parent_category) : null } : {}),
  };
}

/** Store product categories: the public tree, by id or handle. */
export default async function productCategories(app: App): Promise<void> {
  const service = app.modules.product.categories;

  /**
   * Adds what `fields` asks beyond the default shape: each parent's own parent up to the root
   * (`parent_category.parent_category`, one query per level for the whole page) and `products`
   * (one query for the page).
   */
  async function extras(
    request: FastifyRequest,
    categories: StoreCategory[],
    selection: FieldSelection,
  ): Promise<StoreCategory[]> {
    if (wants(selection, "parent_category.parent_category")) {
      let frontier = categories.flatMap((c) => (c.parent_category ? [c.parent_category] : []));
      for (let depth = 0; frontier.length && depth < MAX_DEPTH; depth++) {
        const ids = [...new Set(frontier.map((p) => p.parent_category_id).filter((id): id is string => !!id))];
        const parents = ids.length
          ? new Map(
              (await service.list({ id: ids }, { limit: ids.length, offset: 0 })).items.map((p) => [p.id, base(p)]),
            )
          : new Map<string, StoreParent>();
        for (const node of frontier)
          node.parent_category = node.parent_category_id ? (parents.get(node.parent_category_id) ?? null) : null;
        frontier = frontier.flatMap((p) => (p.parent_category ? [p.parent_category] : []));
      }
    }
    if (!wants(selection, "products")) return categories;
    const products = await productsByGroup(
      app,
      request,
      "category_id",
      categories.map((c) => c.id),
    );
    return categories.map((c) => ({ ...c, products: products.get(c.id) ?? [] }));
  }

  app.get(
    "/product-categories",
    { schema: { querystring: ListCategories, response: ListAnswer("product_categories", StoreCategoryView) } },
    async (request) => {
      const { limit, offset, order, fields, include_descendants_tree, parent_category_id, ...filters } = request.query;
      // `parent_category_id=null` asks for the top level.
      const parents = parent_category_id?.map((p) => (p === "null" ? null : p));
      const { items, count } = await service.list(
        { ...filters, parent_category_id: parents, ...PUBLIC },
        { limit, offset, order },
        { include_descendants_tree, children: PUBLIC },
      );
      const selection = parseFields(fields);
      return listResponse(
        "product_categories",
        project(await extras(request, items.map(storeCategory), selection), selection),
        count,
        { limit, offset },
      );
    },
  );

  app.get(
    "/product-categories/:id",
    {
      schema: {
        params: Params,
        querystring: RetrieveCategory,
        response: Answer("product_category", StoreCategoryView),
      },
    },
    async (request) => {
      const { fields, include_descendants_tree } = request.query;
      const category = await service.retrieve(request.params.id, {
        include_descendants_tree,
        children: PUBLIC,
        filters: PUBLIC,
      });
      const selection = parseFields(fields);
      const [shaped] = await extras(request, [storeCategory(category)], selection);
      return { product_category: project(shaped!, selection) };
    },
  );
}
