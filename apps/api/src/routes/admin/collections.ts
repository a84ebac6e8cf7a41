import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { CollectionCreate, CollectionUpdate, ProductCollectionView } from "@kasse/modules/product";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, Filter, ListQuery, listResponse, RetrieveQuery, Answer, Deleted, ListAnswer } from "../../http/schemas";

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

/** Admin product collections: CRUD (docs/CONTRACT.md). */
export default async function collections(app: App): Promise<void> {
  const service = app.modules.product.collections;

  app.get("/collections", { schema: { querystring: ListCollections, response: ListAnswer("collections", ProductCollectionView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("collections", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/collections", { schema: { body: CollectionCreate, response: Answer("collection", ProductCollectionView) } }, async (request) => ({ collection: await service.create(request.body) }));

  app.get("/collections/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("collection", ProductCollectionView) } }, async (request) => ({
    collection: project(await service.retrieve(request.params.id), parseFields(request.query.fields)),
  }));

  app.post("/collections/:id", { schema: { params: Params, body: CollectionUpdate, response: Answer("collection", ProductCollectionView) } }, async (request) => ({
    collection: await service.update(request.params.id, request.body),
  }));

  app.delete("/collections/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "collection", deleted: true as const };
  });
}
