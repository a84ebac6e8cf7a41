import type { Answer, Client } from "./client";
import { weighted } from "./random";

/** What the admin did, by action, and the refusals it met (4xx: a rule said no). */
interface AdminFigures {
  done: Record<string, number>;
  refused: Record<string, number>;
  failed: number;
}

/**
 * What happens to an order (weights): shipped and paid, partly refunded, canceled, or returned;
 * some are first edited (a line's quantity raised by one: a new version, a unit more reserved).
 */
const PLANS = {
  ship_capture_refund: 20,
  edit_ship_capture_refund: 20,
  cancel: 20,
  ship_capture_return: 20,
  leave: 20,
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

  return { figures, work };
}
