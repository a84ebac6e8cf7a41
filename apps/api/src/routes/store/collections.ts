import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, Filter, ListQuery, listResponse, RetrieveQuery, Answer, ListAnswer } from "../../http/schemas";
import { ProductCollectionView } from "@kasse/modules/product";

const Params = Type.Object({ id: Id() });
const ListCollections = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    handle: Type.Optional(ArrayQuery(Filter("handle"))),
    title: Type.Optional(ArrayQuery(Title())),
  },
  { additionalProperties: false },
);

/** The Store shape of a collection: `{id, title, handle, metadata}`. */
const storeCollection = (c: { id: string; title: string; handle: string; metadata: Record<string, unknown> | null }) => ({ id: c.id, title: c.title, handle: c.handle, metadata: c.metadata });

/** Store collections, by id or handle. */
export default async function collections(app: App): Promise<void> {
  const service = app.modules.product.collections;

  app.get("/collections", { schema: { querystring: ListCollections, response: ListAnswer("collections", ProductCollectionView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("collections", project(items.map(storeCollection), parseFields(fields)), count, { limit, offset });
  });

  app.get("/collections/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("collection", ProductCollectionView) } }, async (request) => {
    return { collection: project(storeCollection(await service.retrieve(request.params.id)), parseFields(request.query.fields)) };
  });
}
