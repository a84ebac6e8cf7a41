import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { CollectionCreate, CollectionUpdate, ProductCollectionView } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { crudRoutes, standardCrud } from "../../http/crud-routes";
import { Filter, ListQueryOf } from "../../http/schemas";

const ListCollections = ListQueryOf(
  { id: Id(), handle: Filter("handle"), title: Title() },
  { q: Type.Optional(Title()) },
);

/** Admin product collections: CRUD (docs/CONTRACT.md). */
export default async function collections(app: App): Promise<void> {
  const service = app.modules.product.collections;
  const operations = standardCrud(service, {
    query: ListCollections,
    create: CollectionCreate,
    update: CollectionUpdate,
  });
  crudRoutes(app, {
    path: "/collections",
    one: "collection",
    many: "collections",
    view: ProductCollectionView,
    ...operations,
  });
}
