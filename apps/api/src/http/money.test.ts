import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { KasseError, Money, MoneyView, MoneyWhen } from "@kasse/core";
import { View } from "@kasse/db";
import {
  answerToMajor,
  assertMinorUnits,
  bodyToMinor,
  MissingCurrencyError,
  NotMinorUnitsError,
  toMajor,
  toMinor,
  type MoneyWalk,
} from "./money";

const DIGITS: Record<string, number> = { usd: 2, eur: 2, jpy: 0, kwd: 3 };
const walk: MoneyWalk = {
  digits: (c) => DIGITS[c] ?? 2,
  regionCurrency: async (id) => (id === "reg_jp" ? "jpy" : undefined),
};

describe("toMinor / toMajor", () => {
  it("is exact for 0, 2 and 3 decimal digits, both ways", () => {
    expect(toMinor(19.99, 2)).toBe(1999);
    expect(toMajor(1999, 2)).toBe(19.99);
    expect(toMinor(1.005, 2)).toBeUndefined();
    expect(toMinor(1999, 0)).toBe(1999);
    expect(toMajor(1999, 0)).toBe(1999);
    expect(toMinor(1.999, 3)).toBe(1999);
    expect(toMajor(1999, 3)).toBe(1.999);
    expect(toMajor(5, 3)).toBe(0.005);
    expect(toMajor(-250, 2)).toBe(-2.5);
    expect(toMinor(-2.5, 2)).toBe(-250);
    expect(toMinor("59.50", 2)).toBe(5950);
    expect(toMinor(59, 2)).toBe(5900);
    expect(toMinor(0, 3)).toBe(0);
    expect(toMinor(1e-7, 2)).toBeUndefined();
    expect(toMinor(1.5e3, 0)).toBe(1500);
  });

  it("round-trips every cent of a range without drift", () => {
    for (let minor = 0; minor < 100_000; minor += 7) {
      expect(toMinor(toMajor(minor, 2), 2)).toBe(minor);
      expect(toMinor(toMajor(minor, 3), 3)).toBe(minor);
      expect(toMinor(toMajor(minor, 0), 0)).toBe(minor);
    }
    expect(JSON.stringify(toMajor(1999, 2))).toBe("19.99");
    expect(toMinor(toMajor(900719925474099, 2), 2)).toBe(900719925474099);
  });

  it("refuses more precision than the currency has, and what is not a number", () => {
    expect(toMinor(19.999, 2)).toBeUndefined();
    expect(toMinor(0.5, 0)).toBeUndefined();
    expect(toMinor(1.0001, 3)).toBeUndefined();
    expect(toMinor(Number.NaN, 2)).toBeUndefined();
    expect(toMinor("12abc", 2)).toBeUndefined();
    expect(toMinor(1e300, 2)).toBeUndefined();
  });
});

const Price = Type.Object({
  currency_code: Type.Optional(Type.String()),
  region_id: Type.Optional(Type.String()),
  amount: Money(),
});
const Body = Type.Object({
  prices: Type.Array(Price),
  quantity: Type.Integer(),
  application_method: Type.Optional(
    Type.Object({
      type: Type.Optional(Type.String()),
      currency_code: Type.Optional(Type.String()),
      value: MoneyWhen("type", ["fixed"], Type.Number()),
    }),
  ),
  rules: Type.Optional(
    Type.Array(
      Type.Object({
        attribute: Type.String(),
        values: MoneyWhen("attribute", ["subtotal"], Type.Union([Type.String(), Type.Array(Type.String())])),
      }),
    ),
  ),
});

describe("bodyToMinor", () => {
  it("converts each amount in its own currency, and leaves quantities and percentages alone", async () => {
    const body = {
      prices: [
        { currency_code: "usd", amount: 19.99 },
        { currency_code: "JPY", amount: 1999 },
        { currency_code: "kwd", amount: 1.999 },
        { region_id: "reg_jp", amount: 500 },
      ],
      quantity: 3,
      application_method: { type: "percentage", value: 12.5 },
    };
    expect(await bodyToMinor(body, Body, walk)).toEqual({
      prices: [
        { currency_code: "usd", amount: 1999 },
        { currency_code: "JPY", amount: 1999 },
        { currency_code: "kwd", amount: 1999 },
        { region_id: "reg_jp", amount: 500 },
      ],
      quantity: 3,
      application_method: { type: "percentage", value: 12.5 },
    });
    expect(body.prices[0]!.amount).toBe(19.99);
  });

  it("converts a conditional amount when its condition holds, from the body or the route's context", async () => {
    const fixed = {
      prices: [],
      quantity: 1,
      application_method: { type: "fixed", currency_code: "usd", value: 10.5 },
      rules: [
        { attribute: "subtotal", values: ["100.25"] },
        { attribute: "currency_code", values: ["usd"] },
      ],
    };
    expect(await bodyToMinor(fixed, Body, walk)).toMatchObject({
      application_method: { value: 1050 },
      rules: [{ values: ["10025"] }, { values: ["usd"] }],
    });
    const partial = { prices: [], quantity: 1, application_method: { value: 7 } };
    expect(
      await bodyToMinor(partial, Body, walk, { application_method: { type: "fixed", currency_code: "kwd" } }),
    ).toMatchObject({ application_method: { value: 7000 } });
    expect(await bodyToMinor(partial, Body, walk, { application_method: { type: "percentage" } })).toMatchObject({
      application_method: { value: 7 },
    });
    expect(
      await bodyToMinor({ amount: 12.34 }, Type.Object({ amount: Money() }), walk, { currency_code: "usd" }),
    ).toEqual({ amount: 1234 });
  });

  it("answers 400 invalid_data for excess precision or an amount without a currency", async () => {
    await expect(
      bodyToMinor({ prices: [{ currency_code: "usd", amount: 19.999 }], quantity: 1 }, Body, walk),
    ).rejects.toMatchObject({ type: "invalid_data", message: expect.stringContaining("prices[0].amount") });
    await expect(
      bodyToMinor({ prices: [{ currency_code: "jpy", amount: 0.5 }], quantity: 1 }, Body, walk),
    ).rejects.toBeInstanceOf(KasseError);
    await expect(bodyToMinor({ prices: [{ amount: 1 }], quantity: 1 }, Body, walk)).rejects.toMatchObject({
      type: "invalid_data",
    });
  });
});

describe("answerToMajor", () => {
  const Item = View({ id: Type.String(), quantity: Type.Integer(), unit_price: MoneyView(), total: MoneyView() });
  const Cart = Type.Object({
    cart: View({
      id: Type.String(),
      currency_code: Type.String(),
      total: MoneyView(),
      items: Type.Array(Item),
      region: Type.Union([View({ id: Type.String() }), Type.Null()]),
    }),
  });

  it("converts amounts in the nearest currency above them and keeps the rest", () => {
    const created = new Date();
    const answer = {
      cart: {
        id: "cart_1",
        currency_code: "kwd",
        total: 3999,
        created,
        items: [{ id: "i", quantity: 2, unit_price: 1999, total: 3998 }],
        region: null,
      },
    };
    expect(answerToMajor(answer, Cart, walk)).toEqual({
      cart: {
        id: "cart_1",
        currency_code: "kwd",
        total: 3.999,
        created,
        items: [{ id: "i", quantity: 2, unit_price: 1.999, total: 3.998 }],
        region: null,
      },
    });
    expect(answer.cart.total).toBe(3999);
  });

  it("fails on an amount with no currency in reach", () => {
    expect(() => answerToMajor({ cart: { id: "c", total: 5 } }, Cart, walk)).toThrow(MissingCurrencyError);
  });
});

describe("assertMinorUnits", () => {
  const Answer = Type.Object({
    order: View({ currency_code: Type.String(), total: MoneyView(), quantity: Type.Number() }),
  });
  it("passes integers (with or without a currency) and fails a fraction of a minor unit", () => {
    expect(() => assertMinorUnits({ order: { total: 1999, quantity: 1.5 } }, Answer)).not.toThrow();
    expect(() => assertMinorUnits({ order: { currency_code: "usd", total: 19.99 } }, Answer)).toThrow(
      NotMinorUnitsError,
    );
  });
});

describe("conditional amounts without a currency", () => {
  const Promotion = Type.Object({
    promotion: View({
      rules: Type.Array(
        View({
          attribute: Type.String(),
          values: MoneyWhen("attribute", ["subtotal"], Type.Array(View({ id: Type.String(), value: Type.String() }))),
        }),
      ),
    }),
  });
  it("are answered as stored (no exact major units) in answers, and refused in requests", async () => {
    const answer = { promotion: { rules: [{ attribute: "subtotal", values: [{ id: "v", value: "10000" }] }] } };
    expect(answerToMajor(answer, Promotion, walk)).toEqual(answer);
    const Rule = Type.Object({
      attribute: Type.String(),
      values: MoneyWhen("attribute", ["subtotal"], Type.Array(Type.String())),
    });
    await expect(bodyToMinor({ attribute: "subtotal", values: ["100"] }, Rule, walk)).rejects.toMatchObject({
      type: "invalid_data",
    });
    expect(await bodyToMinor({ attribute: "subtotal", values: ["100"] }, Rule, walk, { currency_code: "usd" })).toEqual(
      { attribute: "subtotal", values: ["10000"] },
    );
  });

  it("refuse an amount whose condition nothing names, and read it with the route's context", async () => {
    const Batch = Type.Object({
      update: Type.Array(
        Type.Object({
          id: Type.String(),
          attribute: Type.Optional(Type.String()),
          values: Type.Optional(MoneyWhen("attribute", ["subtotal"], Type.Array(Type.String()))),
        }),
      ),
    });
    const body = { update: [{ id: "r1", values: ["60"] }] };
    await expect(bodyToMinor(body, Batch, walk, { currency_code: "usd" })).rejects.toMatchObject({
      type: "invalid_data",
      message: expect.stringContaining("update[0].values: name its attribute"),
    });
    const context = { currency_code: "usd", update: [{ attribute: "subtotal" }] };
    expect(await bodyToMinor(body, Batch, walk, context)).toEqual({ update: [{ id: "r1", values: ["6000"] }] });
    const quantity = { currency_code: "usd", update: [{ attribute: "quantity" }] };
    expect(await bodyToMinor(body, Batch, walk, quantity)).toEqual(body);
    // Nothing that could be an amount: nothing to decide.
    const ids = {
      update: [
        { id: "r1", values: ["cusgrp_1"] },
        { id: "r2", values: ["0"] },
      ],
    };
    expect(await bodyToMinor(ids, Batch, walk)).toEqual(ids);
  });
});
