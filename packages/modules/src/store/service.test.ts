import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@kasse/db/testing";
import { createStoreService, type StoreReferences } from "./service";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const stores = createStoreService();
const refs: StoreReferences = {
  currencies: new Set(["eur", "usd", "gbp"]),
  sales_channels: new Set(),
  regions: new Set(),
  locations: new Set(),
};
const codes = (store: { supported_currencies: Array<{ currency_code: string; is_default: boolean }> }) =>
  store.supported_currencies.map((c) => `${c.currency_code}${c.is_default ? "*" : ""}`);

describe("store", () => {
  it("is created once (concurrent first reads agree), replaces its currencies and is put back by restore", async () => {
    const defaults = { name: "Shop", currencies: [{ currency_code: "EUR", is_default: true }] };
    const [a, b] = await Promise.all([stores.getOrCreate(defaults), stores.getOrCreate(defaults)]);
    expect(a.id).toBe(b.id);
    expect(codes(a)).toEqual(["eur*"]);
    expect((await stores.list({}, { limit: 10, offset: 0 })).count).toBe(1);

    const before = await stores.retrieve(a.id);
    const updated = await stores.update(
      a.id,
      {
        name: "Ana's",
        supported_currencies: [
          { currency_code: "usd", is_default: true },
          { currency_code: "eur", is_default: false },
          { currency_code: "gbp" },
        ],
      },
      refs,
    );
    expect(updated.name).toBe("Ana's");
    expect(codes(updated).sort()).toEqual(["eur", "gbp", "usd*"]);
    expect(
      codes(await stores.update(a.id, { supported_currencies: [{ currency_code: "gbp", is_default: true }] }, refs)),
    ).toEqual(["gbp*"]);

    await stores.restore(before);
    const restored = await stores.retrieve(a.id);
    expect(restored.name).toBe("Shop");
    expect(restored.supported_currencies).toEqual(before.supported_currencies);
  });

  it("refuses a second default, an unknown currency and an unknown region, writing nothing", async () => {
    const store = await stores.getOrCreate({ name: "Shop" });
    const two = [
      { currency_code: "eur", is_default: true },
      { currency_code: "usd", is_default: true },
    ];
    await expect(stores.update(store.id, { supported_currencies: two }, refs)).rejects.toMatchObject({
      type: "invalid_data",
    });
    await expect(
      stores.update(store.id, { supported_currencies: [{ currency_code: "xyz", is_default: true }] }, refs),
    ).rejects.toMatchObject({ type: "invalid_data" });
    await expect(stores.update(store.id, { default_region_id: "reg_x" }, refs)).rejects.toMatchObject({
      type: "not_found",
    });
    expect(await stores.retrieve(store.id)).toEqual(store);
  });
});
