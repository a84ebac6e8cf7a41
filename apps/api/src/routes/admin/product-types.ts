import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { TagCreate, TagUpdate, ProductTypeView } from "@kasse/modules/product";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const List = Type.Object(
  { ...ListQuery, q: Type.Optional(Title()), id: Type.Optional(ArrayQuery(Id())), value: Type.Optional(ArrayQuery(Title())) },
  { additionalProperties: false },
);

/** Admin product types: CRUD over unique values (docs/CONTRACT.md). */
export default async function productTypes(app: App): Promise<void> {
  const service = app.modules.product.types;

  app.get("/product-types", { schema: { querystring: List, response: ListAnswer("product_types", ProductTypeView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("product_types", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/product-types", { schema: { body: TagCreate, response: Answer("product_type", ProductTypeView) } }, async (request) => ({ product_type: await service.create(request.body) }));

  app.get("/product-types/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("product_type", ProductTypeView) } }, async (request) => ({
    product_type: project(await service.retrieve(request.params.id), parseFields(request.query.fields)),
  }));

  app.post("/product-types/:id", { schema: { params: Params, body: TagUpdate, response: Answer("product_type", ProductTypeView) } }, async (request) => ({ product_type: await service.update(request.params.id, request.body) }));

  app.delete("/product-types/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "product_type", deleted: true as const };
  });
}
