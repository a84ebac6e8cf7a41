import type { FastifyRequest } from "fastify";
import type { Modules } from "@kasse/modules";

/**
 * Route config for a route whose path names an order (`:id`): Medusa's dialect reads the body's
 * amounts in that order's currency (an unknown order is 404).
 */
export const orderCurrency = (modules: Modules) => ({
  medusa: {
    context: async (request: FastifyRequest) => ({
      currency_code: (await modules.order.retrieve((request.params as { id: string }).id)).currency_code,
    }),
  },
});
