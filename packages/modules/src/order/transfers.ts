import { randomBytes } from "node:crypto";
import { errors, generateId, hashSecret } from "@kasse/core";
import { transaction } from "@kasse/db";
import { orderQueries as q } from "./queries";
import type { OrderTransferRequestRow } from "./schema";
import type { OrderActor } from "./shapes";
import { createOrderService, type Order } from "./service";

/** How long a transfer link works. */
export const TRANSFER_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;

/** What answering a transfer did: the request as it ended and the order after it. */
export interface TransferAnswer {
  request: OrderTransferRequestRow;
  order: Order;
}

/**
 * Order transfers (Medusa's "claim an order"): a signed-in customer asks for an order; the order's
 * email gets a single-use token (only its SHA-256 is stored) that accepts or declines the request
 * until it expires. Accepting moves the order to the customer. Every step is logged on the order.
 * @example
 * const transfers = createOrderTransferService();
 * const { secret } = await transfers.request({ order_id, customer_id }, actor);
 * await transfers.answer(order_id, secret, "accept");
 */
export function createOrderTransferService() {
  const orders = createOrderService();

  const service = {
    /**
     * Opens a transfer request of `order_id` to `customer_id` and answers the token to mail to the
     * order's email. Refused (400) for a canceled order, an order without email, or an order that
     * already belongs to the customer. An older open request of the order is canceled: only the
     * newest link works. Whether the customer may receive orders (has an account) is the caller's check.
     */
    async request(
      input: { order_id: string; customer_id: string; ttlMs?: number },
      actor: OrderActor,
    ): Promise<{ secret: string; request: OrderTransferRequestRow; email: string }> {
      return transaction(async () => {
        const current = await orders.lock(input.order_id);
        if (current.status === "canceled")
          throw errors.invalidData(`Order ${current.id} is canceled and cannot be transferred`);
        if (current.customer_id === input.customer_id)
          throw errors.invalidData(`Order: ${current.id} already belongs to customer: ${input.customer_id}`);
        if (!current.email) throw errors.invalidData(`Order ${current.id} has no email to confirm a transfer with`);
        const now = new Date();
        await q.cancelOpenTransfers({ order_id: current.id, at: now });
        const secret = randomBytes(32).toString("base64url");
        const row = (await q.insertTransfer({
          id: generateId("otr"),
          order_id: current.id,
          customer_id: input.customer_id,
          email: current.email,
          token_hash: hashSecret(secret),
          expires_at: new Date(now.getTime() + (input.ttlMs ?? TRANSFER_TOKEN_TTL_MS)),
        }))!;
        await orders.recordChange(current.id, "transfer_requested", actor, null, {
          transfer_request_id: row.id,
          customer_id: input.customer_id,
        });
        return { secret, request: row, email: current.email };
      });
    },

    /** Cancels an open request (a compensation; a request already answered stays as it is). */
    async cancel(id: string): Promise<void> {
      await q.cancelTransfer({ id, at: new Date() });
    },

    /**
     * Accepts or declines the open request of `order_id` that `secret` belongs to: 404 for an
     * unknown order, 400 for a token that is unknown, used, expired, superseded or
     * another order's. The token's check and its use are one statement, so it works once.
     */
    async answer(orderId: string, secret: string, answer: "accept" | "decline"): Promise<TransferAnswer> {
      return transaction(async () => {
        const current = await orders.lock(orderId);
        const now = new Date();
        const used = await q.useTransferToken({
          order_id: current.id,
          token_hash: hashSecret(secret),
          status: answer === "accept" ? "accepted" : "declined",
          at: now,
        });
        if (!used) throw errors.invalidData("Invalid or expired transfer token");
        if (answer === "accept") {
          if (current.status === "canceled")
            throw errors.invalidData(`Order ${current.id} is canceled and cannot be transferred`);
          await q.setOrder(current.id, { customer_id: used.customer_id, updated_at: now });
          await orders.recordChange(
            current.id,
            "transfer_accepted",
            { actor_type: null, actor_id: null },
            { customer_id: current.customer_id },
            { customer_id: used.customer_id, transfer_request_id: used.id },
          );
        } else {
          await orders.recordChange(current.id, "transfer_declined", { actor_type: null, actor_id: null }, null, {
            transfer_request_id: used.id,
          });
        }
        return { request: used, order: await orders.retrieve(current.id) };
      });
    },
  };
  return service;
}

export type OrderTransferService = ReturnType<typeof createOrderTransferService>;
