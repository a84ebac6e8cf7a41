import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTagView } from "@kasse/modules/product";
import type { App } from "../../app";
import { crudRoutes } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const List = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** Admin product tags: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTags(app: App): Promise<void> {
  const service = app.modules.product.tags;
  crudRoutes(app, {
    path: "/product-tags",
    one: "product_tag",
    many: "product_tags",
    view: ProductTagView,
    list: { query: List, run: (filters, page) => service.list(filters, page) },
    retrieve: (id) => service.retrieve(id),
    create: { body: TagCreate, run: (body) => service.create(body) },
    update: { body: TagUpdate, run: (id, body) => service.update(id, body) },
    delete: (id) => service.delete(id),
  });
}
