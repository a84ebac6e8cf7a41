import { errors, isKasseError } from "@kasse/core";
import { step } from "./definitions";
import type { Modules } from "@kasse/modules";
import { derivePaymentStatus, type OrderActor } from "@kasse/modules/order";
import { type Payment } from "@kasse/modules/payment";

interface SyncInput {
  order_id: string | null;
  actor?: OrderActor | null;
}

async function syncPaymentStatus(m: Modules, input: SyncInput): Promise<string | null> {
  if (!input.order_id) return null;
  const order = await m.order.lock(input.order_id);
  const collections = order.payment_collection_ids.length
    ? await m.payment.listCollections({ id: order.payment_collection_ids })
    : [];
  const status = derivePaymentStatus(order.status, collections);
  await m.order.setPaymentStatus(order.id, status, input.actor ?? undefined);
  return status;
}

/**
 * Re-derives the order's `payment_status` from its payment collections and stores it. Its
 * compensation does the same: a flow runs it first, so that when a later step fails, the status is
 * re-derived after everything else is undone (money moved by a provider call stays moved, and
 * the status must say so).
 */
export const syncPaymentStatusStep = step("sync-order-payment-status", {
  invoke: async (input: SyncInput, ctx) => ({
    output: await syncPaymentStatus(ctx.modules, input),
    compensateInput: input,
  }),
  compensate: async (input: SyncInput, ctx) => {
    await syncPaymentStatus(ctx.modules, input);
  },
});

/** One provider money movement of a plan: capture or refund `amount` of one payment. */
export interface PaymentMove {
  payment_id: string;
  amount: number;
}

const remaining = (payment: Payment, kind: "capture" | "refund") => {
  const captured = payment.captures.reduce((sum, c) => sum + c.amount, 0);
  const refunded = payment.refunds.reduce((sum, r) => sum + r.amount, 0);
  return kind === "capture" ? payment.amount - captured : captured - refunded;
};

/**
 * Spreads `amount` (default: everything left, at most `limit`) over the payments in their order,
 * each taking what it has left to capture (or to refund). More than is left overall is `invalid_data`.
 */
export function planMoves(
  payments: Payment[],
  kind: "capture" | "refund",
  amount: number | undefined,
  limit = Number.POSITIVE_INFINITY,
): PaymentMove[] {
  const open = payments.filter((p) => !p.canceled_at && remaining(p, kind) > 0);
  const left = open.reduce((sum, p) => sum + remaining(p, kind), 0);
  const wanted = amount ?? Math.min(left, limit);
  if (kind === "capture" && wanted > left)
    throw errors.invalidData(`Cannot capture more than the authorized amount: ${left} left to capture`);
  if (kind === "refund" && wanted > left)
    throw errors.invalidData(`Cannot refund more than the captured amount: ${left} left to refund`);
  if (wanted <= 0) throw errors.invalidData(kind === "capture" ? "Nothing left to capture" : "Nothing left to refund");
  const moves: PaymentMove[] = [];
  let rest = wanted;
  for (const payment of open) {
    if (rest === 0) break;
    const take = Math.min(rest, remaining(payment, kind));
    moves.push({ payment_id: payment.id, amount: take });
    rest -= take;
  }
  return moves;
}

/**
 * Captures one payment at its provider. Not undoable (a capture cannot be taken back; Medusa has no
 * compensation for it either), so flows run it after every check.
 */
export const capturePaymentStep = step("capture-payment", {
  transactional: false,
  invoke: async (input: PaymentMove & { created_by: string | null }, ctx) => {
    const payment = await ctx.modules.payment
      .capturePayment(input.payment_id, {
        amount: input.amount,
        created_by: input.created_by ?? undefined,
        idempotencyKey: ctx.idempotencyKey,
      })
      .catch((error: unknown) => {
        // A payment voided meanwhile (the order was canceled concurrently) is a refused transition: 400.
        if (isKasseError(error) && error.type === "not_allowed") throw errors.invalidData(error.message);
        throw error;
      });
    return { output: { payment_id: payment.id, amount: input.amount } };
  },
});

/** Refunds part of one payment at its provider. Not undoable; a provider failure leaves nothing written. */
export const refundPaymentStep = step("refund-payment", {
  transactional: false,
  invoke: async (
    input: PaymentMove & { note: string | null; refund_reason_id?: string | null; created_by: string | null },
    ctx,
  ) => {
    const payment = await ctx.modules.payment.refundPayment(input.payment_id, {
      amount: input.amount,
      note: input.note ?? undefined,
      refund_reason_id: input.refund_reason_id ?? undefined,
      created_by: input.created_by ?? undefined,
      idempotencyKey: ctx.idempotencyKey,
    });
    return { output: { payment_id: payment.id, amount: input.amount } };
  },
});

/**
 * Order cancellation's money: cancels each uncaptured authorization and refunds what was captured
 * and not yet refunded. Safe to retry (it acts on what is left); not undoable.
 */
export const cancelOrderPaymentsStep = step("cancel-order-payments", {
  transactional: false,
  invoke: async (input: { payment_collection_ids: string[]; created_by: string | null }, ctx) => {
    const payments = ctx.modules.payment;
    const collections = input.payment_collection_ids.length
      ? await payments.listCollections({ id: input.payment_collection_ids })
      : [];
    const done: Array<{ payment_id: string; action: "canceled" | "refunded"; amount: number }> = [];
    for (const { id, amount } of collections.flatMap((c) => c.payments)) {
      // Decided under the payment's row lock on what is captured *now*: a capture racing the
      // cancellation either committed first (then it is refunded below) or finds the payment canceled.
      const voided = await payments
        .cancelPayment(id, { idempotencyKey: `${ctx.idempotencyKey}:cancel:${id}` })
        .catch((error: unknown) => {
          if (isKasseError(error) && error.type === "not_allowed") return false;
          throw error;
        });
      if (voided) {
        done.push({ payment_id: id, action: "canceled", amount });
        continue;
      }
      // Captured (or canceled before): read what it holds now, after the capture that beat us.
      const [payment] = (await payments.listCollections({ id: input.payment_collection_ids }))
        .flatMap((c) => c.payments)
        .filter((p) => p.id === id);
      const left = payment && !payment.canceled_at ? remaining(payment, "refund") : 0;
      if (left > 0) {
        await payments.refundPayment(id, {
          amount: left,
          note: "Order canceled",
          created_by: input.created_by ?? undefined,
          idempotencyKey: `${ctx.idempotencyKey}:refund:${id}`,
        });
        done.push({ payment_id: id, action: "refunded", amount: left });
      }
    }
    return { output: done };
  },
});

/**
 * Logs a payment movement on the order's change log (after the provider call succeeded) and
 * records its events (`payment.captured`, `payment.refunded`: one per payment moved).
 */
export const recordPaymentChangeStep = step("record-order-payment-change", {
  invoke: async (
    input: {
      order_id: string | null;
      action: string;
      actor: OrderActor | null;
      details: Record<string, unknown>;
      events?: { name: "payment.captured" | "payment.refunded"; moves: PaymentMove[] };
    },
    ctx,
  ) => {
    if (input.order_id)
      await ctx.modules.order.recordChange(
        input.order_id,
        input.action,
        input.actor ?? { actor_type: null, actor_id: null },
        null,
        input.details,
      );
    if (input.events?.moves.length) {
      const payments = ctx.modules.payment;
      for (const move of input.events.moves) {
        const currency_code = await payments.paymentCurrency(move.payment_id);
        await ctx.emit(input.events.name, {
          id: move.payment_id,
          order_id: input.order_id,
          amount: move.amount,
          currency_code,
        });
      }
    }
    return { output: null };
  },
});
