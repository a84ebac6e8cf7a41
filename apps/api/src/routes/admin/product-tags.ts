import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTagView } from "@kasse/modules/product";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const List = Type.Object(
  { ...ListQuery, q: Type.Optional(Title()), id: Type.Optional(ArrayQuery(Id())), value: Type.Optional(ArrayQuery(Title())) },
  { additionalProperties: false },
);

/** Admin product tags: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTags(app: App): Promise<void> {
  const service = app.modules.product.tags;

  app.get("/product-tags", { schema: { querystring: List, response: ListAnswer("product_tags", ProductTagView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("product_tags", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/product-tags", { schema: { body: TagCreate, response: Answer("product_tag", ProductTagView) } }, async (request) => ({ product_tag: await service.create(request.body) }));

  app.get("/product-tags/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("product_tag", ProductTagView) } }, async (request) => ({
    product_tag: project(await service.retrieve(request.params.id), parseFields(request.query.fields)),
  }));

  app.post("/product-tags/:id", { schema: { params: Params, body: TagUpdate, response: Answer("product_tag", ProductTagView) } }, async (request) => ({ product_tag: await service.update(request.params.id, request.body) }));

  app.delete("/product-tags/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "product_tag", deleted: true as const };
  });
}
