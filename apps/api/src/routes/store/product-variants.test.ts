import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();
let shirt: { id: string; variantIds: string[] };
let mug: { id: string; variantIds: string[] };
let hidden: string[] = [];
let regionId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const channel = await m.salesChannel.getOrCreateDefault();
  const other = await m.salesChannel.create({ name: "Other" });
  regionId = (await m.region.create({ name: "EU", currency_code: "eur", countries: ["de"] })).id;
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  shirt = await createFixtureProduct(
    t,
    {
      title: "Shirt",
      status: "published",
      sales_channels: [{ id: channel.id }],
      variants: [
        { title: "S", sku: "SH-S", size: "S", stock: 3, prices: [{ currency_code: "eur", amount: 2000 }] },
        { title: "M", sku: "SH-M", size: "M", stock: 4, prices: [{ currency_code: "eur", amount: 2100 }] },
      ],
    },
    location.id,
  );
  mug = await createFixtureProduct(t, {
    title: "Mug",
    status: "published",
    sales_channels: [{ id: channel.id }],
    variants: [{ title: "One", sku: "MUG", size: "One", prices: [{ currency_code: "usd", amount: 900 }] }],
  });
  const draft = await createFixtureProduct(t, {
    title: "Draft",
    status: "draft",
    sales_channels: [{ id: channel.id }],
    variants: [{ title: "D", sku: "DRAFT", size: "One", prices: [] }],
  });
  const elsewhere = await createFixtureProduct(t, {
    title: "Elsewhere",
    status: "published",
    sales_channels: [{ id: other.id }],
    variants: [{ title: "E", sku: "ELSE", size: "One", prices: [] }],
  });
  hidden = [...draft.variantIds, ...elsewhere.variantIds];
});

const skus = (body: { variants: Array<{ sku: string }> }) => body.variants.map((v) => v.sku).sort();

describe("GET /store/product-variants", () => {
  it("lists variants of visible products only, with filters and paging", async () => {
    const all = (await t.store.get("/store/product-variants")).json();
    expect(all).toMatchObject({ count: 3, offset: 0, limit: 15 });
    expect(skus(all)).toEqual(["MUG", "SH-M", "SH-S"]);
    expect(skus((await t.store.get(`/store/product-variants?product_id[]=${shirt.id}`)).json())).toEqual([
      "SH-M",
      "SH-S",
    ]);
    expect(skus((await t.store.get("/store/product-variants?sku=MUG&sku=SH-S")).json())).toEqual(["MUG", "SH-S"]);
    expect(
      skus((await t.store.get(`/store/product-variants?id[]=${mug.variantIds[0]}&id[]=${hidden[0]}`)).json()),
    ).toEqual(["MUG"]);
    const page = (await t.store.get("/store/product-variants?limit=1&offset=2&order=sku")).json();
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 2 });
    expect(skus(page)).toEqual(["SH-S"]);
  });

  it("shapes options and prices like store product variants", async () => {
    const body = (
      await t.store.get(
        `/store/product-variants?product_id=${shirt.id}&region_id=${regionId}&fields=${encodeURIComponent("*,inventory_quantity")}&order=sku`,
      )
    ).json();
    const [medium] = body.variants;
    expect(medium).toMatchObject({
      sku: "SH-M",
      inventory_quantity: 4,
      calculated_price: { calculated_amount: 2100, currency_code: "eur" },
    });
    expect(medium.options).toEqual([
      {
        id: expect.any(String),
        value: "M",
        option_id: expect.any(String),
        option: { id: expect.any(String), title: "Size" },
      },
    ]);
    expect(medium.options[0].option_id).toBe(medium.options[0].option.id);
    const mugBody = (await t.store.get(`/store/product-variants?sku=MUG&currency_code=eur`)).json();
    expect(mugBody.variants[0].calculated_price).toBeNull();
  });

  it("retrieves one visible variant", async () => {
    const res = await t.store.get(
      `/store/product-variants/${shirt.variantIds[0]}?currency_code=eur&fields=sku,calculated_price.calculated_amount`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().variant).toEqual({
      id: shirt.variantIds[0],
      sku: expect.stringMatching(/^SH-/),
      calculated_price: { id: expect.any(String), calculated_amount: expect.any(Number) },
    });
    for (const id of [...hidden, "variant_missing"])
      expect((await t.store.get(`/store/product-variants/${id}`)).statusCode).toBe(404);
  });

  it("rejects bad input", async () => {
    await expectInvalidData(
      t.store,
      "/store/product-variants?",
      "region_id=nope",
      "currency_code=zzz",
      "limit=x",
      "foo=bar",
      "order=amount",
    );
  });
});
