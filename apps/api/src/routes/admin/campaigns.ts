import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/db";
import { CampaignCreate, CampaignPromotions, CampaignUpdate, CampaignResponse } from "@kasse/modules/promotion";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, ArrayQuery, Deleted, ListAnswer, ListQuery, RetrieveQuery, listResponse } from "../../http/schemas";

const Params = Type.Object({ id: Id() });
const ListCampaigns = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    campaign_identifier: Type.Optional(ArrayQuery(Code())),
  },
  { additionalProperties: false },
);

/** Admin campaigns: CRUD with budget, and promotion membership (docs/CONTRACT.md "Admin: promotions and campaigns"). */
export default async function campaigns(app: App): Promise<void> {
  const service = app.modules.promotion;

  app.get("/campaigns", { schema: { querystring: ListCampaigns, response: ListAnswer("campaigns", CampaignResponse) } }, async (request) => {
    const { limit, offset, order, fields, ...filters } = request.query;
    const { items, count } = await service.listCampaigns(filters, { limit, offset, order });
    return listResponse("campaigns", project(items, parseFields(fields)), count, { limit, offset });
  });

  app.post("/campaigns", { schema: { body: CampaignCreate, response: Answer("campaign", CampaignResponse) } }, async (request) => {
    return { campaign: await service.createCampaign(request.body) };
  });

  app.get("/campaigns/:id", { schema: { params: Params, querystring: RetrieveQuery, response: Answer("campaign", CampaignResponse) } }, async (request) => {
    return { campaign: project(await service.retrieveCampaign(request.params.id), parseFields(request.query.fields)) };
  });

  // Medusa's dialect: a budget update's `limit` is read with the stored budget's type and currency.
  const budgetContext = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const { budget } = await service.retrieveCampaign((request.params as { id: string }).id);
        return budget ? { budget: { type: budget.type, currency_code: budget.currency_code } } : undefined;
      },
    },
  };
  app.post("/campaigns/:id", { config: budgetContext, schema: { params: Params, body: CampaignUpdate, response: Answer("campaign", CampaignResponse) } }, async (request) => {
    return { campaign: await service.updateCampaign(request.params.id, request.body) };
  });

  app.delete("/campaigns/:id", { schema: { params: Params, response: Deleted } }, async (request) => {
    await service.deleteCampaign(request.params.id);
    return { id: request.params.id, object: "campaign", deleted: true as const };
  });

  app.post("/campaigns/:id/promotions", { schema: { params: Params, body: CampaignPromotions, response: Answer("campaign", CampaignResponse) } }, async (request) => {
    return { campaign: await service.updateCampaignPromotions(request.params.id, request.body) };
  });
}
