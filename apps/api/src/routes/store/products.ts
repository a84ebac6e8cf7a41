import { Type } from "@sinclair/typebox";
import { CurrencyCode, errors, Id, Title } from "@kasse/core";
import { PRODUCT_RELATIONS, type ProductRelation } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { parseFields, project, type FieldSelection } from "../../http/fields";
import {
  Answer,
  ArrayQuery,
  Fields,
  Filter,
  ListAnswer,
  ListQueryOf,
  listResponse,
  IdParams,
} from "../../http/schemas";
import { pricingContext, storeChannels, storeProducts, StoreProductView } from "./catalog-context";
import { catalogAnswer } from "./catalog-cache";

const PricingQuery = {
  region_id: Type.Optional(Id({ minLength: 1 })),
  currency_code: Type.Optional(CurrencyCode()),
  sales_channel_id: Type.Optional(ArrayQuery(Id())),
};
const ListProducts = ListQueryOf(
  {
    id: Id(),
    handle: Filter("handle"),
    collection_id: Id(),
    category_id: Id(),
    tags: Title(),
    tag_id: Id(),
    option_value_id: Id(),
    type_id: Id(),
  },
  { ...PricingQuery, q: Type.Optional(Title()), is_giftcard: Type.Optional(Type.Boolean()) },
);
const RetrieveProduct = Type.Object(
  { fields: Type.Optional(Fields()), ...PricingQuery },
  { additionalProperties: false },
);

const INVENTORY = "variants.inventory_quantity";

// Sales channel links are not part of the Store shape.
const STORE_RELATIONS = PRODUCT_RELATIONS.filter((r) => r !== "sales_channels");

/** The relations a response needs: all by default, only the named ones when `fields` narrows. */
function relationsFor(selection: FieldSelection): ProductRelation[] {
  if (selection.root.all) return STORE_RELATIONS;
  return STORE_RELATIONS.filter((r) => selection.root.children.has(r));
}

/** Store products: published products of the request's sales channels, priced for a region or currency. */
export default async function products(app: App): Promise<void> {
  const service = app.modules.product;

  app.get(
    "/products",
    { schema: { querystring: ListProducts, response: ListAnswer("products", StoreProductView) } },
    async (request, reply) => {
      const { limit, offset, order, fields, region_id, currency_code, sales_channel_id, tags, ...filters } =
        request.query;
      const selection = parseFields(fields);
      const channels = await storeChannels(app, request, sales_channel_id);
      return catalogAnswer(app, request, reply, { channels, selection, inventoryPath: INVENTORY }, async (groups) => {
        const pricing = await pricingContext(app, { region_id, currency_code }, groups);
        if (channels.length === 0) return listResponse("products", [], 0, { limit, offset });
        const { items, count } = await service.list(
          { ...filters, tag_value: tags, status: ["published"], sales_channel_id: channels },
          { limit, offset, order },
          { relations: relationsFor(selection) },
        );
        const shaped = await storeProducts(app, items, { salesChannelIds: channels, pricing }, selection);
        return listResponse("products", project(shaped, selection), count, { limit, offset });
      });
    },
  );

  app.get(
    "/products/:id",
    { schema: { params: IdParams, querystring: RetrieveProduct, response: Answer("product", StoreProductView) } },
    async (request, reply) => {
      const { fields, region_id, currency_code, sales_channel_id } = request.query;
      const selection = parseFields(fields);
      const channels = await storeChannels(app, request, sales_channel_id);
      return catalogAnswer(app, request, reply, { channels, selection, inventoryPath: INVENTORY }, async (groups) => {
        const pricing = await pricingContext(app, { region_id, currency_code }, groups);
        if (channels.length === 0) throw errors.notFound(`Product with id: ${request.params.id} was not found`);
        const product = await service.retrieve(request.params.id, {
          relations: relationsFor(selection),
          filters: { status: ["published"], sales_channel_id: channels },
        });
        const [shaped] = await storeProducts(app, [product], { salesChannelIds: channels, pricing }, selection);
        return { product: project(shaped!, selection) };
      });
    },
  );
}
