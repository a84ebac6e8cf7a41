import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { CategoryCreate, CategoryUpdate, ProductCategoryView } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { CategoryTree, splitCategoryQuery } from "../category-query";
import { parseFields, project } from "../../http/fields";
import {
  ArrayQuery,
  Fields,
  Filter,
  ListQuery,
  listResponse,
  Answer,
  Deleted,
  ListAnswer,
  IdParams,
  deleted,
} from "../../http/schemas";

const ListCategories = Type.Object(
  {
    ...ListQuery,
    ...CategoryTree,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    handle: Type.Optional(ArrayQuery(Filter("handle"))),
    name: Type.Optional(ArrayQuery(Title())),
    // `parent_category_id=null` lists the top level.
    parent_category_id: Type.Optional(ArrayQuery(Id())),
    is_active: Type.Optional(Type.Boolean()),
    is_internal: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const RetrieveCategory = Type.Object(
  { fields: Type.Optional(Fields()), ...CategoryTree },
  { additionalProperties: false },
);

/** Admin product categories: a tree with `rank` among siblings (docs/CONTRACT.md). */
export default async function productCategories(app: App): Promise<void> {
  const service = app.modules.product.categories;

  app.get(
    "/product-categories",
    { schema: { querystring: ListCategories, response: ListAnswer("product_categories", ProductCategoryView) } },
    async (request) => {
      const { filters, page, tree, fields } = splitCategoryQuery(request.query);
      const { items, count } = await service.list(filters, page, tree);
      return listResponse("product_categories", project(items, parseFields(fields)), count, page);
    },
  );

  app.post(
    "/product-categories",
    { schema: { body: CategoryCreate, response: Answer("product_category", ProductCategoryView) } },
    async (request) => ({ product_category: await service.create(request.body) }),
  );

  app.get(
    "/product-categories/:id",
    {
      schema: {
        params: IdParams,
        querystring: RetrieveCategory,
        response: Answer("product_category", ProductCategoryView),
      },
    },
    async (request) => {
      const { include_descendants_tree, include_ancestors_tree } = request.query;
      const category = await service.retrieve(request.params.id, { include_descendants_tree, include_ancestors_tree });
      return { product_category: project(category, parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/product-categories/:id",
    { schema: { params: IdParams, body: CategoryUpdate, response: Answer("product_category", ProductCategoryView) } },
    async (request) => ({
      product_category: await service.update(request.params.id, request.body),
    }),
  );

  app.delete("/product-categories/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return deleted(request.params.id, "product_category");
  });
}
