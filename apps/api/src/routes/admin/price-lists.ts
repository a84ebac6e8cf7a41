import { Type } from "@sinclair/typebox";
import { CurrencyCode, errors, Id, Title } from "@kasse/core";
import { MAX_LIMIT } from "@kasse/db";
import {
  PriceListCreate,
  PriceListPricesBatch,
  PriceListUpdate,
  PriceListView,
  PriceView,
} from "@kasse/modules/pricing";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { crudRoutes } from "../../http/crud-routes";
import { parseFields, project } from "../../http/fields";
import {
  Deleted,
  ListAnswer,
  ListQueryOf,
  listResponse,
  ChildParams,
  IdParams,
  deleted,
  BatchAnswer,
} from "../../http/schemas";

const PriceParams = ChildParams("price_id");
const ListPriceLists = ListQueryOf(
  {
    id: Id(),
    status: Type.Union([Type.Literal("active"), Type.Literal("draft")]),
    type: Type.Union([Type.Literal("sale"), Type.Literal("override")]),
  },
  { q: Type.Optional(Title()) },
);

/** `GET /admin/price-lists/{id}/prices`: the list's prices, a page at a time. */
const ListPrices = ListQueryOf({ id: Id(), variant_id: Id(), currency_code: CurrencyCode() });

/** Admin price lists: CRUD, batch price changes in one transaction, single price removal. */
export default async function priceLists(app: App): Promise<void> {
  const service = app.modules.priceList;

  /** Prices must name live variants (the product module's); checked before anything is written. */
  async function assertVariants(prices: Array<{ variant_id?: string }> | undefined): Promise<void> {
    const ids = [...new Set((prices ?? []).map((p) => p.variant_id).filter((id): id is string => !!id))];
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += MAX_LIMIT) {
      const { items } = await app.modules.product.listVariants(
        { id: ids.slice(i, i + MAX_LIMIT) },
        { limit: MAX_LIMIT, offset: 0 },
      );
      for (const v of items) found.add(v.id);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw errors.invalidData(`Variants with ids: ${missing.join(", ")} were not found`);
  }

  crudRoutes(app, {
    path: "/price-lists",
    one: "price_list",
    many: "price_lists",
    view: PriceListView,
    list: { query: ListPriceLists, run: (filters, page) => service.list(filters, page) },
    create: {
      body: PriceListCreate,
      run: async (body) => {
        await assertVariants(body.prices);
        return service.create(body);
      },
    },
    retrieve: (id) => service.retrieve(id),
    update: {
      body: PriceListUpdate,
      run: async (id, body) => {
        await assertVariants(body.prices);
        return service.update(id, body);
      },
    },
  });

  app.delete("/price-lists/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await service.delete(request.params.id);
    return deleted(request.params.id, "price-list");
  });

  app.get(
    "/price-lists/:id/prices",
    { schema: { params: IdParams, querystring: ListPrices, response: ListAnswer("prices", PriceView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const { items, count } = await service.listPrices(request.params.id, filters, { limit, offset, order });
      return listResponse("prices", project(items, parseFields(fields)), count, { limit, offset });
    },
  );

  // Medusa's dialect: an updated price's `amount` is in the stored price's currency unless the update names one.
  const batchContext = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const updates = (request.body as { update?: unknown } | undefined)?.update;
        if (!Array.isArray(updates) || updates.length === 0) return undefined;
        const currencies = new Map(
          (await service.retrieve((request.params as { id: string }).id)).prices.map((p) => [p.id, p.currency_code]),
        );
        return {
          update: updates.map((u: unknown) => ({
            currency_code:
              typeof (u as { id?: unknown })?.id === "string" ? currencies.get((u as { id: string }).id) : undefined,
          })),
        };
      },
    },
  };
  app.post(
    "/price-lists/:id/prices/batch",
    {
      config: batchContext,
      schema: { params: IdParams, body: PriceListPricesBatch, response: BatchAnswer(PriceView) },
    },
    async (request) => {
      await assertVariants([...(request.body.create ?? []), ...(request.body.update ?? [])]);
      return service.batchPrices(request.params.id, request.body);
    },
  );

  app.delete(
    "/price-lists/:id/prices/:price_id",
    { schema: { params: PriceParams, response: Deleted } },
    async (request) => {
      await service.deletePrice(request.params.id, request.params.price_id);
      return deleted(request.params.price_id, "price");
    },
  );
}
