import { beforeAll, describe, expect, it } from "vitest";
import { countQueries } from "@kasse/db/testing";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
let regionId: string;
let variantIds: string[];
let optionId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const channel = await m.salesChannel.getOrCreateDefault();
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  regionId = (await m.region.create({ name: "Europe", currency_code: "eur", countries: ["de"] })).id;
  await m.tax.create({ country_code: "de", default_tax_rate: { rate: 19, code: "DE19", name: "MwSt" } });
  const sizes = Array.from({ length: 12 }, (_, i) => `S${i}`);
  ({ variantIds } = await createFixtureProduct(
    t,
    {
      title: "Sock",
      status: "published",
      sales_channels: [{ id: channel.id }],
      variants: sizes.map((size, i) => ({
        title: size,
        size,
        stock: 50,
        prices: [{ currency_code: "eur", amount: 100 + i }],
      })),
    },
    location.id,
  ));
  optionId = (await m.fulfillment.createOption({ name: "Standard", prices: [{ currency_code: "eur", amount: 500 }] }))
    .id;
}, 120_000);

describe("store cart read cost", () => {
  it("GET /store/carts/{id} is a constant, small number of queries whatever the cart holds", async () => {
    const counts: number[] = [];
    for (const lines of [1, 4, 12]) {
      const cart = (
        await t.app.inject({ method: "POST", url: "/store/carts", payload: { region_id: regionId } })
      ).json().cart;
      for (const variant_id of variantIds.slice(0, lines)) {
        expect(
          (
            await t.app.inject({
              method: "POST",
              url: `/store/carts/${cart.id}/line-items`,
              payload: { variant_id, quantity: 2 },
            })
          ).statusCode,
        ).toBe(200);
      }
      await t.app.inject({
        method: "POST",
        url: `/store/carts/${cart.id}/shipping-address`,
        payload: { address_1: "a", city: "Berlin", postal_code: "1", country_code: "de" },
      });
      await t.app.inject({
        method: "POST",
        url: `/store/carts/${cart.id}/shipping-methods`,
        payload: { option_id: optionId },
      });
      const collection = (
        await t.app.inject({ method: "POST", url: "/store/payment-collections", payload: { cart_id: cart.id } })
      ).json().payment_collection;
      await t.app.inject({
        method: "POST",
        url: `/store/payment-collections/${collection.id}/payment-sessions`,
        payload: { provider_id: "pp_system_default" },
      });
      // Warm the default-channel cache of the publishable-key plugin so every read pays the same.
      await t.app.inject({ method: "GET", url: `/store/carts/${cart.id}` });
      counts.push(
        await countQueries(t.database.db, async () => {
          const res = await t.app.inject({ method: "GET", url: `/store/carts/${cart.id}` });
          expect(res.statusCode).toBe(200);
          const body = res.json().cart;
          expect(body.items).toHaveLength(lines);
          expect(body.shipping_methods).toHaveLength(1);
          expect(body.payment_collection.payment_sessions).toHaveLength(1);
          expect(body.payment_collection.amount).toBe(body.total);
        }),
      );
    }
    expect(counts, JSON.stringify(counts)).toEqual([counts[0], counts[0], counts[0]]);
    console.warn(`GET /store/carts/{id}: ${counts[0]} queries`);
    expect(counts[0]).toBeGreaterThan(0);
    // The cart with its lines and methods, its region, its payment collection with sessions and payments: one statement each.
    expect(counts[0]).toBeLessThanOrEqual(3);
  });
});
