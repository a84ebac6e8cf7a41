import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import { beginReturnRequest, cancelReturnWorkflow, createReturnWorkflow, receiveReturnWorkflow } from "@kasse/flows";
import { RETURN_STATUSES, ReturnCreate, ReturnReceive, ReturnRequestBegin, ReturnView } from "@kasse/modules/order";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { isMedusaDialect } from "../../plugins/medusa-dialect";
import { Answer, ArrayQuery, ListAnswer, ListQuery, RetrieveQuery, listResponse, IdParams } from "../../http/schemas";

/**
 * `POST /admin/returns` (docs/CONTRACT.md "Accepted alternatives"): the order's id plus the
 * contract's return body requests the return at once; Medusa's body (`order_id` and no `items`)
 * begins a return request, put together by `return-changes.ts`.
 */
const ReturnCreateWithOrder = Type.Object(
  { order_id: Id({ minLength: 1 }), ...ReturnCreate.properties },
  { additionalProperties: false },
);
const ReturnsPost = Type.Union([ReturnCreateWithOrder, ReturnRequestBegin]);
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

  // A return whose request is still pending is shown as the return it will be (`open`).
  app.get(
    "/returns/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: Answer("return", ReturnView) } },
    async (request) => {
      const found = await app.modules.returnChange.retrieveReturn(request.params.id);
      return { return: project(found, parseFields(request.query.fields)) };
    },
  );

  app.post("/returns", { schema: { body: ReturnsPost, response: Answer("return", ReturnView) } }, async (request) => {
    if (!("items" in request.body))
      return { return: await beginReturnRequest(app.modules, request.body, actor(request)) };
    const { order_id, ...body } = request.body;
    const created = await app.infra.engine.execute(createReturnWorkflow, {
      order_id,
      return: body,
      actor: actor(request),
    });
    return { return: await service.retrieve(created.id) };
  });

  // Receives at once (all outstanding, or `items`). Medusa's dashboard sends no `items` to begin
  // counting the units back item by item (`return-changes.ts`): in Medusa's dialect, so it does.
  app.post(
    "/returns/:id/receive",
    { schema: { params: IdParams, body: ReturnReceive, response: Answer("return", ReturnView) } },
    async (request) => {
      if (isMedusaDialect(request) && !request.body?.items) {
        await app.modules.returnChange.beginReceipt(request.params.id, actor(request));
        return { return: await service.retrieve(request.params.id) };
      }
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
    { schema: { params: IdParams, response: Answer("return", ReturnView) } },
    async (request) => {
      await app.infra.engine.execute(cancelReturnWorkflow, { return_id: request.params.id, actor: actor(request) });
      return { return: await service.retrieve(request.params.id) };
    },
  );
}
