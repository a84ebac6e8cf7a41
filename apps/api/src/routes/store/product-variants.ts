import { Type } from "@sinclair/typebox";
import { Code, CurrencyCode, errors, Id, Title } from "@kasse/core";
import { MAX_LIMIT } from "@kasse/db";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { parseFields, project, type FieldSelection } from "../../http/fields";
import { Answer, ArrayQuery, Fields, ListAnswer, ListQueryOf, listResponse, IdParams } from "../../http/schemas";
import { pricingContext, storeChannels, storeVariants, StoreVariantView } from "./catalog-context";
import { catalogAnswer } from "./catalog-cache";

const PricingQuery = {
  region_id: Type.Optional(Id({ minLength: 1 })),
  currency_code: Type.Optional(CurrencyCode()),
  sales_channel_id: Type.Optional(ArrayQuery(Id())),
};
const ListVariants = ListQueryOf(
  { id: Id(), product_id: Id(), sku: Code() },
  { ...PricingQuery, q: Type.Optional(Title()) },
);
const RetrieveVariant = Type.Object(
  { fields: Type.Optional(Fields()), ...PricingQuery },
  { additionalProperties: false },
);

/** Store variants: variants of published products in the request's sales channels, priced on request. */
export default async function productVariants(app: App): Promise<void> {
  const products = app.modules.product;

  /**
   * Ids of the products the request may see among `productIds` (or all): a variant is visible only
   * through its product. Pages of ids, without relations, so the cost grows with the catalog's
   * size in pages, not per row.
   */
  async function visibleProductIds(channels: string[], productIds: string[] | undefined): Promise<string[]> {
    if (channels.length === 0) return [];
    const ids: string[] = [];
    for (let offset = 0; ; offset += MAX_LIMIT) {
      const { items, count } = await products.list(
        { id: productIds, status: ["published"], sales_channel_id: channels },
        { limit: MAX_LIMIT, offset },
        { relations: [] },
      );
      ids.push(...items.map((p) => p.id));
      if (offset + MAX_LIMIT >= count) return ids;
    }
  }

  /**
   * A store variant answer (cached unless it asks for inventory): `read` gets the request's sales
   * channels, its `fields` and the pricing context of its region or currency and customer groups.
   */
  async function variantAnswer<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    query: { fields?: string; region_id?: string; currency_code?: string; sales_channel_id?: string[] },
    read: (scope: {
      channels: string[];
      selection: FieldSelection;
      pricing: Awaited<ReturnType<typeof pricingContext>>;
    }) => Promise<T>,
  ) {
    const selection = parseFields(query.fields);
    const channels = await storeChannels(app, request, query.sales_channel_id);
    return catalogAnswer(
      app,
      request,
      reply,
      { channels, selection, inventoryPath: "inventory_quantity" },
      async (groups) => read({ channels, selection, pricing: await pricingContext(app, query, groups) }),
    );
  }

  app.get(
    "/product-variants",
    { schema: { querystring: ListVariants, response: ListAnswer("variants", StoreVariantView) } },
    async (request, reply) => {
      const { limit, offset, order, fields, region_id, currency_code, sales_channel_id, product_id, ...filters } =
        request.query;
      return variantAnswer(
        request,
        reply,
        { fields, region_id, currency_code, sales_channel_id },
        async ({ channels, selection, pricing }) => {
          const visible = await visibleProductIds(channels, product_id);
          if (visible.length === 0) return listResponse("variants", [], 0, { limit, offset });
          const { items, count } = await products.listVariants(
            { ...filters, product_id: visible },
            { limit, offset, order },
          );
          const shaped = await storeVariants(app, items, { salesChannelIds: channels, pricing }, selection, "");
          return listResponse("variants", project(shaped, selection), count, { limit, offset });
        },
      );
    },
  );

  app.get(
    "/product-variants/:id",
    { schema: { params: IdParams, querystring: RetrieveVariant, response: Answer("variant", StoreVariantView) } },
    async (request, reply) => {
      return variantAnswer(request, reply, request.query, async ({ channels, selection, pricing }) => {
        const { items } = await products.listVariants({ id: [request.params.id] }, { limit: 1, offset: 0 });
        const variant = items[0];
        const visible = variant ? await visibleProductIds(channels, [variant.product_id]) : [];
        if (!variant || visible.length === 0)
          throw errors.notFound(`Variant with id: ${request.params.id} was not found`);
        const [shaped] = await storeVariants(app, [variant], { salesChannelIds: channels, pricing }, selection, "");
        return { variant: project(shaped!, selection) };
      });
    },
  );
}
