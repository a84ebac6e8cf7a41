import { checkInvariants } from "@kasse/operations";
import type { Requester, TestApp } from "./app";

/**
 * Test helper: what an order's payments say through the admin API: its payment status, what is
 * paid, refunded and still owed (`summary.pending_difference`), and each collection's amount and status.
 */
export async function orderBooks(t: { admin: Requester }, orderId: string) {
  const o = (await t.admin.get(`/admin/orders/${orderId}`)).json().order;
  return {
    payment_status: o.payment_status as string,
    paid_total: o.paid_total as number,
    refunded_total: o.refunded_total as number,
    pending_difference: o.summary.pending_difference as number,
    collections: (o.payment_collections as Array<{ amount: number; status: string }>).map((c) => [c.amount, c.status]),
  };
}

/** Test helper: what `kasse check` finds wrong with the app's payments, one line each (nothing, after any payment test). */
export async function paymentViolations(t: Pick<TestApp, "app">): Promise<string[]> {
  return (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
    r.name.includes("payment") ? r.violations.map((v) => `${r.name}: ${v.id} ${v.problem}`) : [],
  );
}
