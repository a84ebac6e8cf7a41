import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { CampaignCreate, CampaignPromotions, CampaignUpdate, CampaignResponse } from "@kasse/modules/promotion";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { Answer, ListQueryOf, IdParams } from "../../http/schemas";

const ListCampaigns = ListQueryOf({ id: Id(), campaign_identifier: Code() }, { q: Type.Optional(Title()) });

/** Admin campaigns: CRUD with budget, and promotion membership (docs/CONTRACT.md "Admin: promotions and campaigns"). */
export default async function campaigns(app: App): Promise<void> {
  const service = app.modules.promotion;
  // Medusa's dialect: a budget update's `limit` is read with the stored budget's type and currency.
  const budgetContext = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const { budget } = await service.retrieveCampaign((request.params as { id: string }).id);
        return budget ? { budget: { type: budget.type, currency_code: budget.currency_code } } : undefined;
      },
    },
  };
  crudRoutes(app, {
    path: "/campaigns",
    one: "campaign",
    many: "campaigns",
    view: CampaignResponse,
    list: { query: ListCampaigns, run: (filters, page) => service.listCampaigns(filters, page) },
    retrieve: (id) => service.retrieveCampaign(id),
    create: { body: CampaignCreate, run: (body) => service.createCampaign(body) },
    update: { body: CampaignUpdate, config: budgetContext, run: (id, body) => service.updateCampaign(id, body) },
    delete: (id) => service.deleteCampaign(id),
  });

  app.post(
    "/campaigns/:id/promotions",
    { schema: { params: IdParams, body: CampaignPromotions, response: Answer("campaign", CampaignResponse) } },
    async (request) => {
      return { campaign: await service.updateCampaignPromotions(request.params.id, request.body) };
    },
  );
}
