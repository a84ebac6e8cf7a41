import { Type } from "@sinclair/typebox";
import { Code, Id, Title } from "@kasse/core";
import { Extend } from "@kasse/db";
import { PRODUCT_RELATIONS, ProductView } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { ListAnswer, ListQueryOf, listResponse } from "../../http/schemas";
import { AdminVariantListView, variantExtras } from "./product-responses";

/** A variant with its product (the product's own fields, none of its relations), as Medusa lists them by default. */
const VariantWithProduct = Extend(AdminVariantListView, {
  product: Type.Optional(Extend(ProductView, {}, [...PRODUCT_RELATIONS])),
});
const ListVariants = ListQueryOf({ id: Id(), sku: Code(), product_id: Id() }, { q: Type.Optional(Title()) });

/**
 * `GET /admin/product-variants` (`sdk.admin.productVariant.list`): variants across products, as
 * the dashboard's pickers ask for them (price lists, promotions, inventory), with prices,
 * inventory links, their product (the exchange and claim forms' variant table shows its
 * thumbnail and title) and, when named, `inventory_quantity` and `inventory_items.inventory`.
 */
export default async function productVariants(app: App): Promise<void> {
  app.get(
    "/product-variants",
    { schema: { querystring: ListVariants, response: ListAnswer("variants", VariantWithProduct) } },
    async (request) => {
      const { limit, offset, order, fields, ...filters } = request.query;
      const selection = parseFields(fields);
      const { items, count } = await app.modules.product.listVariants(filters, { limit, offset, order });
      const productIds = [...new Set(items.map((v) => v.product_id))];
      const products = productIds.length
        ? (
            await app.modules.product.list(
              { id: productIds },
              { limit: productIds.length, offset: 0 },
              { relations: [] },
            )
          ).items
        : [];
      const byId = new Map(products.map((p) => [p.id, p]));
      const variants = (await variantExtras(app, items, selection)).map((v) => ({
        ...v,
        product: byId.get(v.product_id),
      }));
      return listResponse("variants", project(variants, selection), count, {
        limit,
        offset,
      });
    },
  );
}
