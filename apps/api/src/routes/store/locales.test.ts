import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDatabase } from "@kasse/db";
import { createTestApp, type TestApp } from "../../testing";
import { storeLocales } from "./locales";

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  [t, plain] = await Promise.all([createTestApp({ STORE_LOCALES: "en-US, de-DE,fr" }), createTestApp()]);
});
afterAll(() => Promise.all([t.close(), plain.close()]));

describe("GET /store/locales", () => {
  it("lists the configured languages with their names; none by default", async () => {
    const res = await t.app.inject({ method: "GET", url: "/store/locales" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      locales: [
        { code: "en-US", name: "American English" },
        { code: "de-DE", name: "German (Germany)" },
        { code: "fr", name: "French" },
      ],
    });
    expect((await plain.app.inject({ method: "GET", url: "/store/locales" })).json()).toEqual({ locales: [] });
    expect((await t.app.inject({ method: "GET", url: "/store/locales?x=1" })).statusCode).toBe(400);
  });

  it("names each tag once", () => {
    expect(storeLocales("en,en, ,nl-BE").map((l) => l.code)).toEqual(["en", "nl-BE"]);
  });

  it("a cart takes, keeps and changes the shopper's locale; a malformed one is 400", async () => {
    // On t's database: the test process's is whichever of the two opened first.
    await onDatabase(t.database.db, () =>
      t.app.modules.region.create({ name: "EU", currency_code: "eur", countries: ["de"] }),
    );
    const created = await t.app.inject({ method: "POST", url: "/store/carts", payload: { locale: "de-DE" } });
    expect(created.statusCode).toBe(200);
    const cart = created.json().cart;
    expect(cart.locale).toBe("de-DE");
    const changed = await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}`, payload: { locale: "fr" } });
    expect(changed.json().cart.locale).toBe("fr");
    expect((await t.app.inject({ method: "GET", url: `/store/carts/${cart.id}` })).json().cart.locale).toBe("fr");
    for (const locale of ["", "x", "de_DE", "d3-DE", 5, "en-" + "a".repeat(40)]) {
      const res = await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}`, payload: { locale } });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.app.inject({ method: "GET", url: `/store/carts/${cart.id}` })).json().cart.locale).toBe("fr");
    expect(
      (await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}`, payload: { locale: null } })).json().cart
        .locale,
    ).toBeNull();
  });
});
