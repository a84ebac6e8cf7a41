import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { PROMOTION_STATUSES, PromotionCreate, PromotionUpdate, RuleBatch, type RuleKind, PromotionResponse, RuleBatchResponse } from "@kasse/modules/promotion";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListPromotions = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    code: Type.Optional(ArrayQuery(Code())),
    campaign_id: Type.Optional(ArrayQuery(Id())),
    status: Type.Optional(ArrayQuery(Type.Union(PROMOTION_STATUSES.map((s) => Type.Literal(s))))),
    is_automatic: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const batches: Array<[path: string, kind: RuleKind]> = [
  ["rules", "promotion"],
  ["target-rules", "target"],
  ["buy-rules", "buy"],
];

/** Admin promotions: CRUD and Medusa's rule batches (docs/CONTRACT.md "Admin: promotions and campaigns"). */
export default async function promotions(app: App): Promise<void> {
  const service = app.modules.promotion;
  // Medusa's dialect: a partial update's `value` and a batch's rule values are read with the stored application method's type and currency.
  const stored = async (request: FastifyRequest) => {
    const method = (await service.retrieve((request.params as { id: string }).id)).application_method;
    return method ? { type: method.type, currency_code: method.currency_code } : undefined;
  };
  const updateContext = { medusa: { context: async (request: FastifyRequest) => ({ application_method: await stored(request) }) } };
  const rulesContext = { medusa: { context: async (request: FastifyRequest) => ({ currency_code: (await stored(request))?.currency_code }) } };

  app.get("/promotions", { schema: { querystring: ListPromotions, response: ListAnswer("promotions", PromotionResponse) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.list(filters, { limit, offset, order });
    return listResponse("promotions", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/promotions", { schema: { body: PromotionCreate, response: Answer("promotion", PromotionResponse) } }, async (request) => {
    return { promotion: await service.create(request.body) };
  });

  app.get("/promotions/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("promotion", PromotionResponse) } }, async (request) => {
    return { promotion: project(await service.retrieve(request.params.id), parseFields(request.query.fields)) };
  });

  app.post("/promotions/:id", { config: updateContext, schema: { params: Params, body: PromotionUpdate, response: Answer("promotion", PromotionResponse) } }, async (request) => {
    return { promotion: await service.update(request.params.id, request.body) };
  });

  app.delete("/promotions/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return { id: request.params.id, object: "promotion", deleted: true as const };
  });

  for (const [path, kind] of batches) {
    app.post(`/promotions/:id/${path}/batch`, { config: rulesContext, schema: { params: Params, body: RuleBatch, response: { 200: RuleBatchResponse } } }, async (request) => {
      return service.batchRules(request.params.id, kind, request.body);
    });
  }
}
