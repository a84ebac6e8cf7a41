import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

// What Medusa's dashboard reads of a variant's stock in its order forms (@medusajs/dashboard
// 2.x: order-create-exchange / -claim / -return / -fulfillment): without the levels it shows
// "No inventory level" for a variant stocked at the chosen location.

const t = useTestApp();

/** The exchange and claim forms' outbound variant table (`useVariants`). */
const TABLE_FIELDS = "*inventory_items.inventory.location_levels,+inventory_quantity,+manage_inventory";
/** The forms' "No inventory level" check (`sdk.admin.productVariant.list({id, fields})`). */
const LEVELS_FIELDS = "*inventory.location_levels";
/** The return form and the fulfillment form's variant detail (`sdk.admin.product.retrieveVariant`). */
const DETAIL_FIELDS = "*inventory,*inventory.location_levels,*inventory_items";

type Level = { id: string; location_id: string; stocked_quantity: number; available_quantity: number };
type Item = { id: string; location_levels: Level[] };
type Variant = {
  id: string;
  manage_inventory: boolean;
  inventory_quantity?: number;
  inventory?: Item[];
  inventory_items: Array<{ inventory_item_id: string; inventory?: Item }>;
};

const s = { productId: "", variants: [] as string[], items: [] as string[], north: "", south: "" };

beforeAll(async () => {
  const m = t.app.modules;
  s.north = (await m.stockLocation.create({ name: "North" })).id;
  s.south = (await m.stockLocation.create({ name: "South" })).id;
  const product = await createFixtureProduct(
    t,
    {
      title: "Scarf",
      status: "published",
      variants: ["Red", "Blue", "Green"].map((size) => ({
        title: size,
        size,
        prices: [{ currency_code: "eur", amount: 1500 }],
        stock: 4,
      })),
    },
    s.north,
  );
  s.productId = product.id;
  s.variants = product.variantIds;
  const links = await m.inventory.listVariantInventoryItems(s.variants);
  s.items = s.variants.map((v) => links.get(v)![0]!.inventory_item_id);
  // The red one is stocked in the south too.
  await m.inventory.createLevels(s.items[0]!, [{ location_id: s.south, stocked_quantity: 2 }]);
});

const list = async (query: string) => {
  const res = await t.admin.get(`/admin/product-variants?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().variants as Variant[];
};
const locationsOf = (item: Item | undefined) => item?.location_levels.map((l) => l.location_id).sort();

describe("variants' inventory levels as Medusa's order forms ask for them", () => {
  it("answers `inventory` with its location levels for the forms' level check, in both dialects", async () => {
    const ids = s.variants.map((id) => `id[]=${id}`).join("&");
    for (const base of ["", "/medusa"]) {
      const res = await t.admin.get(
        `${base}/admin/product-variants?${ids}&fields=${encodeURIComponent(LEVELS_FIELDS)}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const variants = res.json().variants as Variant[];
      const red = variants.find((v) => v.id === s.variants[0])!;
      const blue = variants.find((v) => v.id === s.variants[1])!;
      expect(red.inventory).toHaveLength(1);
      expect(red.inventory![0]!.id).toBe(s.items[0]);
      expect(locationsOf(red.inventory![0])).toEqual([s.north, s.south].sort());
      expect(red.inventory![0]!.location_levels.find((l) => l.location_id === s.south)).toMatchObject({
        stocked_quantity: 2,
        available_quantity: 2,
        id: expect.any(String),
      });
      expect(locationsOf(blue.inventory![0])).toEqual([s.north]);
    }
  });

  it("answers the outbound table's levels, quantity and manage_inventory", async () => {
    const variants = await list(`product_id[]=${s.productId}&fields=${encodeURIComponent(TABLE_FIELDS)}`);
    expect(variants).toHaveLength(3);
    const red = variants.find((v) => v.id === s.variants[0])!;
    expect(red).toMatchObject({ manage_inventory: true, inventory_quantity: 6 });
    expect(red.inventory_items).toHaveLength(1);
    expect(locationsOf(red.inventory_items[0]!.inventory)).toEqual([s.north, s.south].sort());
    expect(variants.find((v) => v.id === s.variants[2])).toMatchObject({ inventory_quantity: 4 });
  });

  it("answers the product's variant detail with both forms of the link", async () => {
    const res = await t.admin.get(
      `/admin/products/${s.productId}/variants/${s.variants[0]}?fields=${encodeURIComponent(DETAIL_FIELDS)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const variant = res.json().variant as Variant;
    expect(locationsOf(variant.inventory![0])).toEqual([s.north, s.south].sort());
    expect(variant.inventory_items.map((i) => i.inventory_item_id)).toEqual([s.items[0]]);
    const page = await t.admin.get(
      `/admin/products/${s.productId}/variants?fields=${encodeURIComponent(LEVELS_FIELDS)}`,
    );
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json().variants as Variant[]).map((v) => v.inventory![0]!.id).sort()).toEqual([...s.items].sort());
  });

  it("is read per page, not per variant: one variant and three cost the same statements", async () => {
    const count = async (query: string) =>
      (
        await t.database.statements.record(async () => {
          expect((await t.admin.get(`/admin/product-variants?${query}`)).statusCode).toBe(200);
        })
      ).length;
    const fields = encodeURIComponent(`${LEVELS_FIELDS},${TABLE_FIELDS}`);
    const one = await count(`id[]=${s.variants[0]}&fields=${fields}`);
    const three = await count(`product_id[]=${s.productId}&fields=${fields}`);
    expect(three).toBe(one);
  });

  it("leaves `inventory` out unless asked for", async () => {
    const [variant] = await list(`id[]=${s.variants[0]}`);
    expect(variant).not.toHaveProperty("inventory");
    expect(variant!.inventory_items[0]).not.toHaveProperty("inventory");
  });
});
