import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import type { FastifyRequest } from "fastify";
import {
  addPromotions,
  addShippingMethod,
  addToCart,
  calculateCartTaxes,
  createCart,
  deleteLineItem,
  readCart,
  removePromotions,
  setCartAddress,
  transferCart,
  updateCart,
  updateLineItem,
  type CartChannelContext,
  type CartResult,
} from "@kasse/flows";
import {
  CartAddressRequired,
  CartCreate,
  CartCustomerTransfer,
  CartUpdate,
  LineItemCreate,
  LineItemUpdate,
  PromoCodes,
  ShippingMethodCreate,
} from "@kasse/modules/cart";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import { Answer, DeleteResponse, RetrieveQuery, deleted, NoFields } from "../../http/schemas";
import { CartView, cartActor, cartResponse } from "./cart-response";

const Params = Type.Object({ id: Id({ minLength: 1 }) }, { additionalProperties: false });
const LineParams = Type.Object(
  { id: Id({ minLength: 1 }), line_id: Id({ minLength: 1 }) },
  { additionalProperties: false },
);

const One = Answer("cart", CartView);
type CartRequest<B extends TSchema> = FastifyRequest<{ Params: Static<typeof Params>; Body: Static<B> }>;
const DeletedLine = { 200: Type.Object({ ...DeleteResponse.properties, parent: CartView }) };

/** The request's sales channels for a new cart (docs/CONTRACT.md "Keys"). */
function channels(request: FastifyRequest): CartChannelContext {
  return { sales_channel_ids: request.salesChannelIds, from_publishable_key: request.publishableKeyId !== null };
}

/** Store carts: create, read, update, line items, addresses, shipping methods, promotions, taxes, customer transfer. */
export default async function carts(app: App): Promise<void> {
  const m = app.modules;

  app.post("/carts", { schema: { body: CartCreate, response: One } }, async (request) => {
    return { cart: cartResponse(await createCart(m, cartActor(request), channels(request), request.body)) };
  });

  app.get("/carts/:id", { schema: { params: Params, querystring: RetrieveQuery, response: One } }, async (request) => {
    return {
      cart: project(
        cartResponse(await readCart(m, request.params.id, cartActor(request))),
        parseFields(request.query.fields),
      ),
    };
  });

  /**
   * A write to the cart of the path, answered with the cart as it then is.
   */
  function cartWrite<B extends TSchema>(
    method: "POST" | "DELETE",
    url: string,
    body: B,
    write: (request: CartRequest<B>) => Promise<CartResult>,
  ): void {
    app.route({
      method,
      url,
      schema: { params: Params, body, response: One },
      handler: async (request) => ({ cart: cartResponse(await write(request as CartRequest<B>)) }),
    });
  }

  cartWrite("POST", "/carts/:id", CartUpdate, (r) => updateCart(m, r.params.id, cartActor(r), channels(r), r.body));
  cartWrite("POST", "/carts/:id/line-items", LineItemCreate, (r) => addToCart(m, r.params.id, cartActor(r), r.body));

  app.post(
    "/carts/:id/line-items/:line_id",
    { schema: { params: LineParams, body: LineItemUpdate, response: One } },
    async (request) => {
      return {
        cart: cartResponse(
          await updateLineItem(m, request.params.id, request.params.line_id, cartActor(request), request.body),
        ),
      };
    },
  );

  app.delete(
    "/carts/:id/line-items/:line_id",
    { schema: { params: LineParams, response: DeletedLine } },
    async (request) => {
      const result = await deleteLineItem(m, request.params.id, request.params.line_id, cartActor(request));
      // Medusa's answer: the delete envelope with the cart as `parent`.
      return deleted(request.params.line_id, "line-item", { parent: cartResponse(result) });
    },
  );

  cartWrite("POST", "/carts/:id/shipping-address", CartAddressRequired, (r) =>
    setCartAddress(m, r.params.id, cartActor(r), "shipping_address", r.body),
  );
  cartWrite("POST", "/carts/:id/billing-address", CartAddressRequired, (r) =>
    setCartAddress(m, r.params.id, cartActor(r), "billing_address", r.body),
  );
  cartWrite("POST", "/carts/:id/shipping-methods", ShippingMethodCreate, (r) =>
    addShippingMethod(m, r.params.id, cartActor(r), r.body),
  );
  cartWrite("POST", "/carts/:id/promotions", PromoCodes, (r) =>
    addPromotions(m, r.params.id, cartActor(r), r.body.promo_codes),
  );
  cartWrite("DELETE", "/carts/:id/promotions", PromoCodes, (r) =>
    removePromotions(m, r.params.id, cartActor(r), r.body.promo_codes),
  );
  cartWrite("POST", "/carts/:id/taxes", NoFields, (r) => calculateCartTaxes(m, r.params.id, cartActor(r)));
  cartWrite("POST", "/carts/:id/customer", CartCustomerTransfer, (r) =>
    transferCart(m, r.params.id, cartActor(r), r.body),
  );
}
