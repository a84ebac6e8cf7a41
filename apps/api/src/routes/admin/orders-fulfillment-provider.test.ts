import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder, stockTestVariants } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";
import { defaultFulfillmentProviders, type createTestFulfillmentProvider } from "@kasse/modules/fulfillment";

// The create-fulfillment saga calls the fulfillment provider of the order's shipping option
// (`ful_test` here, as `pp_test` is for payments): its answer is stored on the fulfillment; a
// provider that fails leaves nothing behind (stock, order quantities); a failure after the
// provider created its fulfillment cancels it there.
const t = useTestApp({}, { adminId: "user_ful_provider" });
const LOC = "sloc_provider";
let items: Record<string, string>;
beforeAll(async () => {
  items = await stockTestVariants(t.app, [LOC]);
});

const getOrder = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const stock = async () => {
  const l = await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC);
  return { stocked: l.stocked_quantity, reserved: l.reserved_quantity };
};

/** The `ful_test` provider the engine of this process calls. */
const fulTest = () => defaultFulfillmentProviders.get("ful_test") as ReturnType<typeof createTestFulfillmentProvider>;

/** The newest create-fulfillment execution, with its steps. */
async function lastFulfillmentExecution() {
  const {
    items: [last],
  } = await t.app.infra.engine.list(
    { workflow_id: ["create-fulfillment"] },
    { limit: 1, offset: 0, order: "-created_at" },
  );
  return t.app.infra.engine.retrieve(last!.id);
}

/** An order shipped with a `ful_test` option whose data says how the provider behaves. */
async function orderShippedWith(data: Record<string, unknown>) {
  const option = await t.app.modules.fulfillment.createOption({
    name: "Test carrier",
    prices: [{ currency_code: "eur", amount: 700 }],
    provider_id: "ful_test",
    data,
  });
  const { order } = await placeTestOrder(
    t.app,
    {
      shipping_methods: [
        { shipping_option_id: option.id, name: "Test carrier", amount: 700, subtotal: 700, total: 700 },
      ],
    },
    { reserve_at: LOC },
  );
  return order;
}

describe("fulfillment providers", () => {
  it("creates the fulfillment with the shipping option's provider and keeps its answer", async () => {
    const order = await orderShippedWith({ service: "express" });
    const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: LOC,
    });
    expect(res.statusCode).toBe(200);
    const [fulfillment] = res.json().order.fulfillments;
    expect(fulfillment).toMatchObject({
      provider_id: "ful_test",
      data: { service: "express", ful_test_id: expect.stringMatching(/^ful_test_wfx_/) },
    });
    expect(fulTest().canceled()).not.toContain(fulfillment.data.ful_test_id);

    // Canceling it in Kasse cancels it with the provider too.
    const canceled = await t.admin.post(`/admin/orders/${order.id}/fulfillments/${fulfillment.id}/cancel`, {});
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().order.fulfillments[0].canceled_at).not.toBeNull();
    expect(fulTest().canceled()).toContain(fulfillment.data.ful_test_id);
  });

  it("a provider that fails: 502 provider_error, and the saga gives back the stock and the order's quantities", async () => {
    const order = await orderShippedWith({ behavior: "fail" });
    const before = await stock();
    const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: LOC,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      type: "provider_error",
      message: "ful_test: the provider failed to create the fulfillment",
    });
    const after = await getOrder(order.id);
    expect(after).toMatchObject({ fulfillment_status: "not_fulfilled", fulfillments: [] });
    expect(after.items[0].detail.fulfilled_quantity).toBe(0);
    expect(await stock()).toEqual(before);
    const detail = await lastFulfillmentExecution();
    expect(detail.state).toBe("compensated");
    expect(detail.steps.find((s) => s.name === "create-provider-fulfillment")).toMatchObject({ state: "failed" });
  });

  it("a failure after the provider created its fulfillment cancels it with the provider", async () => {
    const order = await orderShippedWith({});
    const before = await stock();
    const res = await withFailure(t.database.db, "fulfillment", "INSERT", "true", () =>
      t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
        items: [{ id: order.items[0]!.id, quantity: 1 }],
        location_id: LOC,
      }),
    );
    expect(res.statusCode).toBe(500);
    expect((await getOrder(order.id)).fulfillments).toEqual([]);
    expect(await stock()).toEqual(before);
    const detail = await lastFulfillmentExecution();
    expect(detail.state).toBe("compensated");
    const providerStep = detail.steps.find((s) => s.name === "create-provider-fulfillment");
    expect(providerStep).toMatchObject({ state: "compensated" });
    expect(fulTest().canceled()).toContain(
      (providerStep!.output as { data: { ful_test_id: string } }).data.ful_test_id,
    );
  });
});
