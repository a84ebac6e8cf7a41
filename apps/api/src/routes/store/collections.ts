import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend } from "@kasse/db";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { crudRoutes, standardReads } from "../../http/crud-routes";
import { Filter, ListQueryOf } from "../../http/schemas";
import { ProductCollectionView } from "@kasse/modules/product";
import { wants, type FieldSelection } from "../../http/fields";
import { StoreProductView, withGroupProducts } from "./catalog-context";

const ListCollections = ListQueryOf(
  { id: Id(), handle: Filter("handle"), title: Title() },
  { q: Type.Optional(Title()) },
);

/** The Store shape of a collection: `{id, title, handle, metadata}`. */
const storeCollection = (c: {
  id: string;
  title: string;
  handle: string;
  metadata: Record<string, unknown> | null;
}) => ({ id: c.id, title: c.title, handle: c.handle, metadata: c.metadata });

/** A store collection, with its products when `fields` asks for them. */
const StoreCollectionView = Extend(ProductCollectionView, { products: Type.Array(StoreProductView) });

/** Store collections, by id or handle. */
export default async function collections(app: App): Promise<void> {
  const service = app.modules.product.collections;

  /** The Store shape, with `products` (one query for the page) when `fields` names them. */
  async function shape(
    rows: Parameters<typeof storeCollection>[0][],
    selection: FieldSelection | undefined,
    request: FastifyRequest,
  ) {
    const shaped = rows.map(storeCollection);
    if (!selection || !wants(selection, "products")) return shaped;
    return withGroupProducts(app, request, "collection_id", shaped);
  }

  crudRoutes(app, {
    path: "/collections",
    one: "collection",
    many: "collections",
    view: StoreCollectionView,
    present: shape,
    ...standardReads(service, ListCollections),
  });
}
