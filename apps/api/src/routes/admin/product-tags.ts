import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTagView } from "@kasse/modules/product";
import type { App } from "../../app";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const List = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin product tags: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTags(app: App): Promise<void> {
  const service = app.modules.product.tags;
  const operations = standardCrud(service, { query: List, create: TagCreate, update: TagUpdate });
  crudRoutes(app, {
    path: "/product-tags",
    one: "product_tag",
    many: "product_tags",
    view: ProductTagView,
    ...operations,
  });
}
