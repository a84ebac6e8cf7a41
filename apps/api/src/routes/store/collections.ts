import { Type } from "@sinclair/typebox";
import { Extend, Id, Title } from "@kasse/db";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { Answer, Filter, ListAnswer, ListQueryOf, listResponse, RetrieveQuery } from "../../http/schemas";
import { ProductCollectionView } from "@kasse/modules/product";
import { parseFields, project, wants, type FieldSelection } from "../../http/fields";
import { productsByGroup, StoreProductView } from "./catalog-context";

const Params = Type.Object({ id: Id() });
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
    request: FastifyRequest,
    rows: Parameters<typeof storeCollection>[0][],
    selection: FieldSelection,
  ) {
    const shaped = rows.map(storeCollection);
    if (!wants(selection, "products")) return shaped;
    const products = await productsByGroup(
      app,
      request,
      "collection_id",
      rows.map((c) => c.id),
    );
    return shaped.map((c) => ({ ...c, products: products.get(c.id) ?? [] }));
  }

  app.get(
    "/collections",
    { schema: { querystring: ListCollections, response: ListAnswer("collections", StoreCollectionView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const { items, count } = await service.list(filters, { limit, offset, order });
      const selection = parseFields(fields);
      return listResponse("collections", project(await shape(request, items, selection), selection), count, {
        limit,
        offset,
      });
    },
  );

  app.get(
    "/collections/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: Answer("collection", StoreCollectionView) } },
    async (request) => {
      const selection = parseFields(request.query.fields);
      const [collection] = await shape(request, [await service.retrieve(request.params.id)], selection);
      return { collection: project(collection!, selection) };
    },
  );
}
