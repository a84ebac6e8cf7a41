import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/db";
import { ReturnReasonCreate, ReturnReasonUpdate, ReturnReasonView } from "@kasse/modules/order";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListReasons = Type.Object(
  { ...ListQuery, q: Type.Optional(Title()), id: Type.Optional(ArrayQuery(Id())), value: Type.Optional(ArrayQuery(Title())) },
  { additionalProperties: false },
);

/** Admin return reasons (Medusa's `/admin/return-reasons`): CRUD, soft delete. */
export default async function returnReasons(app: App): Promise<void> {
  const reasons = app.modules.returnReason;

  app.get("/return-reasons", { schema: { querystring: ListReasons, response: ListAnswer("return_reasons", ReturnReasonView) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await reasons.list(filters, { limit, offset, order });
    return listResponse("return_reasons", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/return-reasons", { schema: { body: ReturnReasonCreate, response: Answer("return_reason", ReturnReasonView) } }, async (request) => {
    return { return_reason: await reasons.create(request.body) };
  });

  app.get("/return-reasons/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("return_reason", ReturnReasonView) } }, async (request) => {
    return { return_reason: project(await reasons.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/return-reasons/:id", { schema: { params: Params, body: ReturnReasonUpdate, response: Answer("return_reason", ReturnReasonView) } }, async (request) => {
    return { return_reason: await reasons.update(request.params.id, request.body) };
  });

  app.delete("/return-reasons/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await reasons.delete(request.params.id);
    return { id: request.params.id, object: "return_reason", deleted: true as const };
  });
}
