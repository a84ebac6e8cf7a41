import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("POST /admin/sales-channels/{id}/products", () => {
  it("adds and removes products, rejecting unknown ids without writing", async () => {
    const channel = (await t.admin.post("/admin/sales-channels", { name: "Retail" })).json().sales_channel;
    const make = async (title: string) =>
      (await t.admin.post("/admin/products", { title, options: [{ title: "Size", values: ["S"] }] })).json().product
        .id as string;
    const [a, b] = [await make("A"), await make("B")];
    const inChannel = async () =>
      (
        (await t.admin.get(`/admin/products?sales_channel_id=${channel.id}&order=title`)).json().products as Array<{
          id: string;
        }>
      ).map((p) => p.id);

    const added = await t.admin.post(`/admin/sales-channels/${channel.id}/products`, { add: [a, b, a] });
    expect(added.statusCode).toBe(200);
    expect(added.json().sales_channel.id).toBe(channel.id);
    expect(await inChannel()).toEqual([a, b]);
    expect((await t.admin.get(`/admin/products/${a}`)).json().product.sales_channels).toEqual([
      expect.objectContaining({ id: channel.id, name: "Retail" }),
    ]);

    expect((await t.admin.post(`/admin/sales-channels/${channel.id}/products`, { remove: [b] })).statusCode).toBe(200);
    expect(await inChannel()).toEqual([a]);

    const unknown = await t.admin.post(`/admin/sales-channels/${channel.id}/products`, {
      add: [b, "prod_missing"],
      remove: [a],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ type: "invalid_data", message: expect.stringContaining("prod_missing") });
    expect(await inChannel()).toEqual([a]);

    expect((await t.admin.post("/admin/sales-channels/sc_missing/products", { add: [a] })).statusCode).toBe(404);
    for (const body of [{ add: "x" }, { add: [1] }, { other: [] }]) {
      const res = await t.admin.post(`/admin/sales-channels/${channel.id}/products`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/admin/sales-channels/${channel.id}/products`,
          payload: { add: [a] },
        })
      ).statusCode,
    ).toBe(401);
  });
});
