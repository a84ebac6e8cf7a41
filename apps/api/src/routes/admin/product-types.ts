import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTypeView } from "@kasse/modules/product";
import type { App } from "../../app";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const List = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin product types: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTypes(app: App): Promise<void> {
  const service = app.modules.product.types;
  const operations = standardCrud(service, { query: List, create: TagCreate, update: TagUpdate });
  crudRoutes(app, {
    path: "/product-types",
    one: "product_type",
    many: "product_types",
    view: ProductTypeView,
    ...operations,
  });
}
