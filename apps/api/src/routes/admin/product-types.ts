import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTypeView } from "@kasse/modules/product";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const List = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin product types: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTypes(app: App): Promise<void> {
  const service = app.modules.product.types;
  crudRoutes(app, {
    path: "/product-types",
    one: "product_type",
    many: "product_types",
    view: ProductTypeView,
    list: { query: List, run: (filters, page) => service.list(filters, page) },
    retrieve: (id) => service.retrieve(id),
    create: { body: TagCreate, run: (body) => service.create(body) },
    update: { body: TagUpdate, run: (id, body) => service.update(id, body) },
    delete: (id) => service.delete(id),
  });
}
