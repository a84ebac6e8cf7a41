import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import type { ProductCategory } from "@kasse/modules/product";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, Fields, Filter, ListQuery, listResponse, Answer, ListAnswer } from "../../http/schemas";
import { ProductCategoryView } from "@kasse/modules/product";

const Params = Type.Object({ id: Id() });
const ListCategories = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    handle: Type.Optional(ArrayQuery(Filter("handle"))),
    name: Type.Optional(ArrayQuery(Title())),
    parent_category_id: Type.Optional(ArrayQuery(Id())),
    include_descendants_tree: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const RetrieveCategory = Type.Object({ fields: Type.Optional(Fields()), include_descendants_tree: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

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
  parent_category?: Omit<StoreCategory, "category_children" | "parent_category"> | null;
}

/** The Store shape: the contract's `{id, name, handle, parent_category_id, category_children}` and Medusa's other public fields. */
function storeCategory(c: ProductCategory): StoreCategory {
  const base = (x: ProductCategory | NonNullable<ProductCategory["parent_category"]>) => ({
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
  return {
    ...base(c),
    category_children: c.category_children.map(storeCategory),
    ...(c.parent_category !== undefined ? { parent_category: c.parent_category ? base(c.parent_category) : null } : {}),
  };
}

/** Store product categories: the public tree, by id or handle. */
export default async function productCategories(app: App): Promise<void> {
  const service = app.modules.product.categories;

  app.get("/product-categories", { schema: { querystring: ListCategories, response: ListAnswer("product_categories", ProductCategoryView) } }, async (request) => {
    const { limit, offset, order, fields, include_descendants_tree, parent_category_id, ...filters } = request.query;
    // `parent_category_id=null` asks for the top level.
    const parents = parent_category_id?.map((p) => (p === "null" ? null : p));
    const { items, count } = await service.list({ ...filters, parent_category_id: parents, ...PUBLIC }, { limit, offset, order }, { include_descendants_tree, children: PUBLIC });
    return listResponse("product_categories", project(items.map(storeCategory), parseFields(fields)), count, { limit, offset });
  });

  app.get("/product-categories/:id", { schema: { params: Params, querystring: RetrieveCategory, response: Answer("product_category", ProductCategoryView) } }, async (request) => {
    const { fields, include_descendants_tree } = request.query;
    const category = await service.retrieve(request.params.id, { include_descendants_tree, children: PUBLIC, filters: PUBLIC });
    return { product_category: project(storeCategory(category), parseFields(fields)) };
  });
}
