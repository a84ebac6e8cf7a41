import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import { completeCart, readCart } from "@kasse/flows";
import type { App } from "../../app-type";
import { OrderDetailView, orderView } from "../../orders/view";
import { CartView, cartActor, cartResponse } from "./cart-response";
import { NoFields } from "../../http/schemas";

const Params = Type.Object({ id: Id({ minLength: 1 }) }, { additionalProperties: false });

/**
 * Errors of a completion that are the caller's to fix or say nothing about the cart: answered as
 * HTTP errors, not as `{type: "cart"}` (`unavailable`: the process is shutting down and the
 * storefront retries the same call).
 */
const HTTP_ERRORS = new Set(["not_found", "conflict", "unauthorized", "not_allowed", "unavailable"]);
const Completed = {
  200: Type.Union([
    Type.Object({ type: Type.Literal("order"), order: OrderDetailView }),
    Type.Object({
      type: Type.Literal("cart"),
      cart: CartView,
      error: Type.Object({ message: Type.String(), name: Type.String(), type: Type.String() }),
    }),
  ]),
};

/**
 * `POST /store/carts/{id}/complete`: `{type: "order", order}` on success (also for a cart completed
 * before), else HTTP 200 `{type: "cart", cart, error: {message, name, type}}` with the cart as it
 * is now. A missing checkout precondition is 400 `invalid_data`, an unknown cart 404.
 */
export default async function cartComplete(app: App): Promise<void> {
  const m = app.modules;

  app.post(
    "/carts/:id/complete",
    {
      schema: { params: Params, body: NoFields, response: Completed },
      // The storefront SDK posts without a body.
    },
    async (request) => {
      const actor = cartActor(request);
      const outcome = await completeCart(app.infra.engine, m, request.params.id, actor);
      if (outcome.type === "order")
        return { type: "order" as const, order: await orderView(m, await m.order.retrieve(outcome.order_id), "store") };
      const { error } = outcome;
      if (HTTP_ERRORS.has(error.type)) throw error;
      // Unexpected failures keep their detail in the journal and logs, not in the storefront's answer.
      const message =
        error.type === "unknown_error" || error.type === "unexpected_state"
          ? "An unknown error occurred while completing the cart."
          : error.message;
      return {
        type: "cart" as const,
        cart: cartResponse(await readCart(m, request.params.id, actor)),
        error: { message, name: error.name, type: error.type },
      };
    },
  );
}
