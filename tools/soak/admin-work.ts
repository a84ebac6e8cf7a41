import type { Answer, Client } from "./client";
import { weighted } from "./random";

/** What the admin did, by action, and the refusals it met (4xx: a rule said no). */
interface AdminFigures {
  done: Record<string, number>;
  refused: Record<string, number>;
  failed: number;
}

/**
 * What happens to an order (weights): shipped and paid, partly refunded, canceled, returned,
 * exchanged (a unit back for a new one) or claimed (a unit written off and refunded); some are
 * first edited (a line's quantity raised by one: a new version, a unit more reserved).
 */
const PLANS = {
  ship_capture_refund: 20,
  edit_ship_capture_refund: 15,
  cancel: 15,
  ship_capture_return: 15,
  ship_capture_exchange: 10,
  ship_capture_claim: 10,
  leave: 15,
} as const;

/**
 * The merchant's side: takes placed orders one by one and works them through the Admin API
 * (fulfil, ship, capture, partial refund, cancel, return and receive), each request retried under
 * its Idempotency-Key across process kills.
 */
export function createAdminWork(client: Client, admin: { email: string; password: string }, locationId: string) {
  const figures: AdminFigures = { done: {}, refused: {}, failed: 0 };
  let token: Promise<string> | undefined;
  const login = async () => {
    const answer = await client.request("POST", "/auth/user/emailpass", { body: admin });
    if (answer?.status !== 200)
      throw new Error(`admin login failed: ${answer?.status} ${JSON.stringify(answer?.body)}`);
    return answer.body.token as string;
  };

  /** One admin request: its answer when 200, else null (counted as refused or failed). */
  async function call(action: string, method: string, path: string, body?: unknown): Promise<Answer | null> {
    const headers = { authorization: `Bearer ${await (token ??= login())}` };
    const answer = await client.request(method, path, { headers, body, timeoutMs: 60_000 });
    if (answer?.status === 200) {
      figures.done[action] = (figures.done[action] ?? 0) + 1;
      return answer;
    }
    if (answer && answer.status < 500) {
      const why = `${action} ${answer.status} ${answer.body?.type ?? ""}`.trim();
      figures.refused[why] = (figures.refused[why] ?? 0) + 1;
    } else figures.failed++;
    return null;
  }

  async function work(orderId: string): Promise<void> {
    const plan = weighted(PLANS);
    if (plan === "leave") return;
    if (plan === "cancel") {
      await call("cancel", "POST", `/admin/orders/${orderId}/cancel`);
      return;
    }
    if (plan === "edit_ship_capture_refund") await edit(orderId);
    const read = await call("read", "GET", `/admin/orders/${orderId}`);
    const order = read?.body?.order;
    if (!order) return;
    const items = (order.items as Array<{ id: string; quantity: number }>).map((i) => ({
      id: i.id,
      quantity: i.quantity,
    }));
    const fulfilled = await call("fulfil", "POST", `/admin/orders/${orderId}/fulfillments`, {
      items,
      location_id: locationId,
    });
    const fulfillment = fulfilled?.body?.order?.fulfillments?.at(-1);
    if (!fulfillment) return;
    const label = {
      tracking_number: `SOAK${fulfillment.id.slice(-8)}`,
      tracking_url: "https://carrier.example.com/track",
      label_url: "https://carrier.example.com/label",
    };
    await call("ship", "POST", `/admin/orders/${orderId}/fulfillments/${fulfillment.id}/shipments`, {
      labels: [label],
    });
    const collection = order.payment_collections?.[0];
    if (!collection) return;
    if (!(await call("capture", "POST", `/admin/orders/${orderId}/payment-collections/${collection.id}/capture`, {})))
      return;
    if (plan === "ship_capture_exchange") return exchange(orderId, order.items[0]);
    if (plan === "ship_capture_claim") return claim(orderId, items[0]!.id, collection.payments?.[0]?.id);
    if (plan !== "ship_capture_return") {
      await call("refund", "POST", `/admin/orders/${orderId}/payment-collections/${collection.id}/refund`, {
        amount: Math.max(1, Math.floor(order.total / 4)),
        reason: "soak: partial refund",
      });
      return;
    }
    const returned = await call("return", "POST", `/admin/orders/${orderId}/returns`, {
      items: [{ id: items[0]!.id, quantity: 1 }],
      location_id: locationId,
    });
    const ret = returned?.body?.return;
    if (ret) await call("receive", "POST", `/admin/orders/${orderId}/returns/${ret.id}/receive`, {});
  }

  /** An order edit through Medusa's protocol: begin, one more unit of the first line, request, confirm. */
  async function edit(orderId: string): Promise<void> {
    const read = await call("read", "GET", `/admin/orders/${orderId}`);
    const line = read?.body?.order?.items?.[0] as { id: string; quantity: number } | undefined;
    if (!line) return;
    if (!(await call("edit begin", "POST", "/admin/order-edits", { order_id: orderId }))) return;
    // Medusa's edit routes name the order: its active edit.
    const base = `/admin/order-edits/${orderId}`;
    const ok =
      (await call("edit item", "POST", `${base}/items/item/${line.id}`, { quantity: line.quantity + 1 })) &&
      (await call("edit request", "POST", `${base}/request`)) &&
      (await call("edit confirm", "POST", `${base}/confirm`));
    // Refused (no stock for the unit, say): the order stays as it was and open for the next change.
    if (!ok) await call("edit cancel", "DELETE", base);
  }

  /** Medusa's exchange: one unit of the line back (received at once), one unit of its variant out. */
  async function exchange(orderId: string, line: { id: string; variant_id: string }): Promise<void> {
    const begun = await call("exchange begin", "POST", "/admin/exchanges", { order_id: orderId });
    const ex = begun?.body?.exchange as { id: string; return_id: string } | undefined;
    if (!ex) return;
    const base = `/admin/exchanges/${ex.id}`;
    const ok =
      (await call("exchange inbound", "POST", `${base}/inbound/items`, { items: [{ id: line.id, quantity: 1 }] })) &&
      (await call("exchange location", "POST", `/admin/returns/${ex.return_id}`, { location_id: locationId })) &&
      (await call("exchange outbound", "POST", `${base}/outbound/items`, {
        items: [{ variant_id: line.variant_id, quantity: 1 }],
      })) &&
      (await call("exchange confirm", "POST", `${base}/request`));
    if (!ok) {
      await call("exchange cancel", "DELETE", `${base}/request`);
      return;
    }
    await call("exchange receive", "POST", `/admin/returns/${ex.return_id}/receive`, {});
  }

  /** A refund claim of one unit (production failure), then the refund of what the order is owed back. */
  async function claim(orderId: string, lineId: string, paymentId: string | undefined): Promise<void> {
    const begun = await call("claim begin", "POST", "/admin/claims", { type: "refund", order_id: orderId });
    const c = begun?.body?.claim as { id: string } | undefined;
    if (!c) return;
    const base = `/admin/claims/${c.id}`;
    const ok =
      (await call("claim item", "POST", `${base}/claim-items`, {
        items: [{ id: lineId, quantity: 1, reason: "production_failure" }],
      })) && (await call("claim confirm", "POST", `${base}/request`));
    if (!ok) {
      await call("claim cancel", "DELETE", `${base}/request`);
      return;
    }
    const owed = (await call("read", "GET", `/admin/orders/${orderId}`))?.body?.order?.summary?.pending_difference;
    if (paymentId && typeof owed === "number" && owed < 0)
      await call("claim refund", "POST", `/admin/payments/${paymentId}/refund`, { amount: -owed });
  }

  return { figures, work };
}
