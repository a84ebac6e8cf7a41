import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
let summer: { id: string };
beforeAll(async () => {
  summer = await t.app.modules.product.collections.create({
    title: "Summer",
    handle: "summer",
    metadata: { season: 2 },
  });
  await t.app.modules.product.collections.create({ title: "Winter", handle: "winter" });
  const gone = await t.app.modules.product.collections.create({ title: "Gone", handle: "gone" });
  await t.app.modules.product.collections.delete(gone.id);
});

describe("store collections", () => {
  it("lists live collections in the Store shape, with handle filter and paging", async () => {
    const all = (await t.store.get("/store/collections?order=title")).json();
    expect(all).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect(all.collections[0]).toEqual({ id: summer.id, title: "Summer", handle: "summer", metadata: { season: 2 } });
    expect(
      (await t.store.get("/store/collections?handle[]=winter"))
        .json()
        .collections.map((c: { title: string }) => c.title),
    ).toEqual(["Winter"]);
    expect(
      (await t.store.get("/store/collections?limit=1&offset=1&order=title"))
        .json()
        .collections.map((c: { title: string }) => c.title),
    ).toEqual(["Winter"]);
    expect((await t.store.get("/store/collections?fields=title&order=-title")).json().collections[0]).toEqual({
      id: expect.any(String),
      title: "Winter",
    });
  });

  it("retrieves by id or handle", async () => {
    expect((await t.store.get(`/store/collections/${summer.id}`)).json().collection.handle).toBe("summer");
    expect((await t.store.get("/store/collections/summer")).json().collection.id).toBe(summer.id);
    const missing = await t.store.get("/store/collections/gone");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe("not_found");
  });

  it("lists each collection's products when fields asks for *products (the storefront's footer and collection page)", async () => {
    const channel = await t.app.modules.salesChannel.getOrCreateDefault();
    const tee = await createFixtureProduct(t, {
      title: "Tee",
      status: "published",
      collection_id: summer.id,
      sales_channels: [{ id: channel.id }],
      variants: [{ title: "M", size: "M", prices: [{ currency_code: "usd", amount: 100 }] }],
    });
    await createFixtureProduct(t, {
      title: "Hidden Tee",
      status: "draft",
      collection_id: summer.id,
      sales_channels: [{ id: channel.id }],
      variants: [{ title: "M", size: "M", prices: [{ currency_code: "usd", amount: 100 }] }],
    });
    const list = (await t.store.get("/store/collections?fields=*products&limit=100&offset=0")).json().collections;
    expect(list.find((c: { id: string }) => c.id === summer.id).products.map((p: { id: string }) => p.id)).toEqual([
      tee.id,
    ]);
    expect(list.find((c: { handle: string }) => c.handle === "winter").products).toEqual([]);
    expect(
      (await t.store.get(`/store/collections/${summer.id}?fields=*products`)).json().collection.products[0],
    ).toMatchObject({ id: tee.id, title: "Tee" });
    expect(
      (await t.store.get("/store/collections?fields=id,%20handle,%20title")).json().collections[0],
    ).not.toHaveProperty("products");
  });

  it("rejects bad input", async () => {
    for (const query of ["limit=-1", "offset=x", "bogus=1", "order=nope"])
      expect((await t.store.get(`/store/collections?${query}`)).statusCode).toBe(400);
  });
});
