import { Type } from "@sinclair/typebox";
import { Id, MoneyView } from "@kasse/core";
import { Extend, View } from "@kasse/db";
import { assertCartAccess } from "@kasse/flows";
import { ShippingOptionView } from "@kasse/modules/fulfillment";
import type { App } from "../../app-type";
import { Fields } from "../../http/schemas";
import { cartActor } from "./cart-response";

const ListForCart = Type.Object(
  { cart_id: Id({ minLength: 1 }), fields: Type.Optional(Fields()) },
  { additionalProperties: false },
);

const StoreShippingOptions = {
  200: Type.Object({
    shipping_options: Type.Array(
      Extend(
        ShippingOptionView,
        {
          amount: MoneyView(),
          calculated_price: View({ calculated_amount: MoneyView(), currency_code: Type.String() }),
        },
        ["region_id", "stock_location_id", "rules", "created_at", "updated_at", "deleted_at"],
      ),
    ),
    count: Type.Integer(),
  }),
};

/** `GET /store/shipping-options?cart_id=`: the options the cart can use (its region and currency), each with its `amount`. */
export default async function shippingOptions(app: App): Promise<void> {
  app.get(
    "/shipping-options",
    { schema: { querystring: ListForCart, response: StoreShippingOptions } },
    async (request) => {
      const state = await app.modules.cart.load(request.query.cart_id);
      assertCartAccess(state, cartActor(request));
      const { cart } = state;
      const options = await app.modules.fulfillment.optionsForContext({
        region_id: cart.region_id,
        currency_code: cart.currency_code,
        address: cart.shipping_address,
      });
      const shipping_options = options.map((o) => ({
        id: o.id,
        name: o.name,
        price_type: o.price_type,
        service_zone_id: o.service_zone_id,
        shipping_profile_id: o.shipping_profile_id,
        provider_id: o.provider_id,
        data: o.data,
        type: o.type,
        amount: o.amount,
        // Medusa's storefronts read the price here.
        calculated_price: { calculated_amount: o.amount, currency_code: cart.currency_code },
        prices: o.prices,
        metadata: o.metadata,
      }));
      return { shipping_options, count: shipping_options.length };
    },
  );
}
