import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/db";
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
import type { App } from "../../app";
import { parseFields, project } from "../../http/fields";
import { Answer, DeleteResponse, RetrieveQuery, deleted } from "../../http/schemas";
import { CartView, cartActor, cartResponse } from "./cart-response";

const Params = Type.Object({ id: Id({ minLength: 1 }) }, { additionalProperties: false });
const LineParams = Type.Object(
  { id: Id({ minLength: 1 }), line_id: Id({ minLength: 1 }) },
  { additionalProperties: false },
);
const NoBody = Type.Object({}, { additionalProperties: false });
// Bodiless POSTs (taxes, customer transfer) are validated as `{}` so unknown fields are still refused.
const emptyBody = async (request: { body: unknown }) => {
  request.body ??= {};
};

const One = Answer("cart", CartView);
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

  app.post("/carts/:id", { schema: { params: Params, body: CartUpdate, response: One } }, async (request) => {
    return {
      cart: cartResponse(await updateCart(m, request.params.id, cartActor(request), channels(request), request.body)),
    };
  });

  app.post(
    "/carts/:id/line-items",
    { schema: { params: Params, body: LineItemCreate, response: One } },
    async (request) => {
      return { cart: cartResponse(await addToCart(m, request.params.id, cartActor(request), request.body)) };
    },
  );

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

  app.post(
    "/carts/:id/shipping-address",
    { schema: { params: Params, body: CartAddressRequired, response: One } },
    async (request) => {
      return {
        cart: cartResponse(
          await setCartAddress(m, request.params.id, cartActor(request), "shipping_address", request.body),
        ),
      };
    },
  );

  app.post(
    "/carts/:id/billing-address",
    { schema: { params: Params, body: CartAddressRequired, response: One } },
    async (request) => {
      return {
        cart: cartResponse(
          await setCartAddress(m, request.params.id, cartActor(request), "billing_address", request.body),
        ),
      };
    },
  );

  app.post(
    "/carts/:id/shipping-methods",
    { schema: { params: Params, body: ShippingMethodCreate, response: One } },
    async (request) => {
      return { cart: cartResponse(await addShippingMethod(m, request.params.id, cartActor(request), request.body)) };
    },
  );

  app.post(
    "/carts/:id/promotions",
    { schema: { params: Params, body: PromoCodes, response: One } },
    async (request) => {
      return {
        cart: cartResponse(await addPromotions(m, request.params.id, cartActor(request), request.body.promo_codes)),
      };
    },
  );

  app.delete(
    "/carts/:id/promotions",
    { schema: { params: Params, body: PromoCodes, response: One } },
    async (request) => {
      return {
        cart: cartResponse(await removePromotions(m, request.params.id, cartActor(request), request.body.promo_codes)),
      };
    },
  );

  app.post(
    "/carts/:id/taxes",
    { schema: { params: Params, body: NoBody, response: One }, preValidation: emptyBody },
    async (request) => {
      return { cart: cartResponse(await calculateCartTaxes(m, request.params.id, cartActor(request))) };
    },
  );

  app.post(
    "/carts/:id/customer",
    { schema: { params: Params, body: CartCustomerTransfer, response: One }, preValidation: emptyBody },
    async (request) => {
      return { cart: cartResponse(await transferCart(m, request.params.id, cartActor(request), request.body)) };
    },
  );
}
