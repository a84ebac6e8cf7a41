import { Type, type TSchema } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { TagCreate, TagUpdate, ProductTagView, type ProductService } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { ListQueryOf } from "../../http/schemas";

const List = ListQueryOf({ id: Id(), value: Title() }, { q: Type.Optional(Title()) });

/** CRUD routes over unique values, product tags' or product types' (docs/CONTRACT.md). */
export function valueRoutes(
  app: App,
  service: ProductService["tags"] | ProductService["types"],
  names: { path: string; one: string; many: string; view: TSchema },
): void {
  crudRoutes(app, { ...names, ...standardCrud(service, { query: List, create: TagCreate, update: TagUpdate }) });
}

/** Admin product tags. */
export default async function productTags(app: App): Promise<void> {
  valueRoutes(app, app.modules.product.tags, {
    path: "/product-tags",
    one: "product_tag",
    many: "product_tags",
    view: ProductTagView,
  });
}
