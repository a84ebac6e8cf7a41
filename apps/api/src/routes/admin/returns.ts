import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/db";
import { cancelReturnWorkflow, createReturnWorkflow, receiveReturnWorkflow } from "@kasse/flows";
import { RETURN_STATUSES, ReturnCreate, ReturnReceive, ReturnView } from "@kasse/modules/order";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
/** `POST /admin/returns` (docs/CONTRACT.md "Accepted alternatives"): the order's id plus the contract's return body. */
const ReturnCreateWithOrder = Type.Object(
  { order_id: Id({ minLength: 1 }), ...ReturnCreate.properties },
  { additionalProperties: false },
);
const ListReturns = Type.Object(
  {
    limit: ListQuery.limit,
    offset: ListQuery.offset,
    fields: ListQuery.fields,
    order_id: Type.Optional(ArrayQuery(Id())),
    status: Type.Optional(ArrayQuery(Type.Union(RETURN_STATUSES.map((s) => Type.Literal(s))))),
  },
  { additionalProperties: false },
);

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/** Admin returns at `/admin/returns` (the Medusa form of the order's return routes). */
export default async function returns(app: App): Promise<void> {
  const service = app.modules.orderReturn;

  app.get(
    "/returns",
    { schema: { querystring: ListReturns, response: ListAnswer("returns", ReturnView) } },
    async (request) => {
      const { limit, offset, fields, ...filters } = request.query;
      const { items, count } = await service.list(filters, { limit, offset });
      return listResponse("returns", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  app.get(
    "/returns/:id",
    { schema: { params: Params, querystring: RetrieveQuery, response: Answer("return", ReturnView) } },
    async (request) => {
      return { return: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
    },
  );

  app.post(
    "/returns",
    { schema: { body: ReturnCreateWithOrder, response: Answer("return", ReturnView) } },
    async (request) => {
      const { order_id, ...body } = request.body;
      const created = await app.infra.engine.execute(createReturnWorkflow, {
        order_id,
        return: body,
        actor: actor(request),
      });
      return { return: await service.retrieve(created.id) };
    },
  );

  app.post(
    "/returns/:id/receive",
    { schema: { params: Params, body: Type.Optional(ReturnReceive), response: Answer("return", ReturnView) } },
    async (request) => {
      await app.infra.engine.execute(receiveReturnWorkflow, {
        return_id: request.params.id,
        receive: request.body ?? {},
        actor: actor(request),
      });
      return { return: await service.retrieve(request.params.id) };
    },
  );

  app.post(
    "/returns/:id/cancel",
    { schema: { params: Params, response: Answer("return", ReturnView) } },
    async (request) => {
      await app.infra.engine.execute(cancelReturnWorkflow, { return_id: request.params.id, actor: actor(request) });
      return { return: await service.retrieve(request.params.id) };
    },
  );
}
