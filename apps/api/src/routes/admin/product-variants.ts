import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { ListAnswer, ListQueryOf, listResponse } from "../../http/schemas";
import { AdminVariantListView, variantExtras } from "./product-responses";

const ListVariants = ListQueryOf({ id: Id(), sku: Code(), product_id: Id() }, { q: Type.Optional(Title()) });

/**
 * `GET /admin/product-variants` (`sdk.admin.productVariant.list`): variants across products, as
 * the dashboard's pickers ask for them (price lists, promotions, inventory), with prices,
 * inventory links and, when named, `inventory_quantity` and `inventory_items.inventory`.
 */
export default async function productVariants(app: App): Promise<void> {
  app.get(
    "/product-variants",
    { schema: { querystring: ListVariants, response: ListAnswer("variants", AdminVariantListView) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const selection = parseFields(fields);
      const { items, count } = await app.modules.product.listVariants(filters, { limit, offset, order });
      return listResponse("variants", project(await variantExtras(app, items, selection), selection), count, {
        limit,
        offset,
      });
    },
  );
}
