import { Type } from "@sinclair/typebox";
import { Id, Title } from "@kasse/core";
import { Extend, MAX_LIMIT } from "@kasse/db";
import { ProductOptionValueView, ProductOptionView } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { ArrayQuery, ListAnswer, ListQuery, listResponse } from "../../http/schemas";
import { storeChannels } from "./catalog-context";

const ListOptions = Type.Object(
  {
    ...ListQuery,
    // Medusa's store default page for options.
    limit: Type.Integer({ minimum: 0, maximum: MAX_LIMIT, default: 50 }),
    q: Type.Optional(Title()),
    id: Type.Optional(ArrayQuery(Id())),
    title: Type.Optional(ArrayQuery(Title())),
    is_exclusive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** A store option: `is_exclusive` (always true in Kasse: an option belongs to one product) and its values. */
const StoreProductOptionView = Extend(
  ProductOptionView,
  { is_exclusive: Type.Boolean(), values: Type.Array(Extend(ProductOptionValueView, {}, ["deleted_at"])) },
  ["deleted_at"],
);

/**
 * Store product options (Medusa's `GET /store/product-options`): the options of the published
 * products the request's sales channels sell. Medusa also has options shared by many products
 * (`is_exclusive: false`); every Kasse option is its product's own, so `is_exclusive=false` lists none.
 */
export default async function productOptions(app: App): Promise<void> {
  app.get(
    "/product-options",
    { schema: { querystring: ListOptions, response: ListAnswer("product_options", StoreProductOptionView) } },
    async (request) => {
      const { limit, offset, order, fields, is_exclusive, ...filters } = request.query;
      const channels = await storeChannels(app, request, undefined);
      if (channels.length === 0 || is_exclusive === false)
        return listResponse("product_options", [], 0, { limit, offset });
      const { items, count } = await app.modules.product.listOptions(
        { ...filters, product: { status: ["published"], sales_channel_id: channels } },
        { limit, offset, order },
      );
      const shaped = items.map(({ deleted_at: _deleted, values, ...o }) => ({
        ...o,
        is_exclusive: true,
        values: values.map(({ deleted_at: _d, ...v }) => v),
      }));
      return listResponse("product_options", project(shaped, parseFields(fields)), count, { limit, offset });
    },
  );
}
