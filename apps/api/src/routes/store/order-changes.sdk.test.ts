import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";
import { useChangeFixtures } from "../../testing/order-changes";
import { sdkFailure } from "../../testing/sdk";
import { listenOnLoopback } from "../../testing/storefront";

// A storefront reads its shopper's order history through Medusa's SDK (`sdk.client.fetch`: the route
// is a Kasse extension, so the SDK has no method of its own for it), in Medusa's dialect.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON from the SDK
type Row = any;

const t = useTestApp({}, { adminId: "user_store_history_sdk" });
const f = useChangeFixtures(t, "SDK history warehouse");
let shopper: Medusa;
let customerId: string;

beforeAll(async () => {
  const baseUrl = `${await listenOnLoopback(t)}/medusa`;
  shopper = new Medusa({ baseUrl, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } });
  const credentials = { email: "lin@example.com", password: "lin-pass-12" };
  await shopper.auth.register("customer", "emailpass", credentials);
  await shopper.store.customer.create({ email: credentials.email, first_name: "Lin" });
  await shopper.auth.login("customer", "emailpass", credentials);
  customerId = (await shopper.store.customer.retrieve()).customer.id;
});

describe("@medusajs/js-sdk: the shopper's order history (GET /store/orders/{id}/changes)", () => {
  it("shows the edit the merchant confirmed, in euros, and refuses another customer's order", async () => {
    const { order } = await placeTestOrder(
      t.app,
      { sales_channel_id: f.CHANNEL, customer_id: customerId, email: "lin@example.com" },
      { reserve_at: f.LOC },
    );
    const mug = order.items.find((i) => i.variant_id === "variant_mug")!.id;
    for (const [path, body] of [
      ["/admin/order-edits", { order_id: order.id }],
      [`/admin/order-edits/${order.id}/items/item/${mug}`, { quantity: 3 }],
      [`/admin/order-edits/${order.id}/confirm`, {}],
    ] as const) {
      const res = await t.admin.post(path, body);
      expect(res.statusCode, res.body).toBe(200);
    }

    const seen = await shopper.client.fetch<Row>(`/store/orders/${order.id}/changes`, {
      query: { change_type: ["edit"] },
    });
    expect(seen).toMatchObject({ count: 1, offset: 0, limit: 50 });
    expect(seen.order_changes).toEqual([
      expect.objectContaining({
        order_id: order.id,
        change_type: "edit",
        status: "confirmed",
        version: 2,
        currency_code: "eur",
        actions: [
          expect.objectContaining({ action: "ITEM_UPDATE", line_item_id: mug, title: "Mug", quantity: 3, amount: 15 }),
        ],
      }),
    ]);
    expect(seen.order_changes[0]).not.toHaveProperty("created_by");

    const other = await placeTestOrder(t.app, { sales_channel_id: f.CHANNEL, customer_id: "cus_not_lin" });
    expect(await sdkFailure(shopper.client.fetch(`/store/orders/${other.order.id}/changes`))).toMatchObject({
      status: 404,
    });
  }, 60_000);
});
