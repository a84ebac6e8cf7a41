import { describe, expect, it } from "vitest";
import { pgTable, text, integer } from "drizzle-orm/pg-core";
import { Type } from "@sinclair/typebox";
import { money } from "./columns";
import {
  addMoney,
  Amount,
  KasseError,
  MAX_AMOUNT,
  MAX_TOTAL,
  Money,
  moneyMarker,
  MoneyView,
  MoneyWhen,
  multiplyMoney,
} from "@kasse/core";
import { isMoneyColumn } from "./money-columns";
import { rowProperties } from "./views";

describe("Money", () => {
  it("marks request and answer amounts, bounded as amounts", () => {
    expect(moneyMarker(Money())).toBe(true);
    expect(Money()).toMatchObject({ type: "integer", minimum: 0, maximum: MAX_AMOUNT });
    expect(MAX_AMOUNT).toBe(10 ** 13);
    expect(Money({ minimum: 1 })).toMatchObject({ minimum: 1 });
    expect(moneyMarker(Amount())).toBe(true);
    expect(moneyMarker(MoneyView())).toBe(true);
    expect(MoneyView()).not.toHaveProperty("minimum");
    expect(moneyMarker(Type.Integer())).toBeUndefined();
  });

  it("marks a field that is money only for some values of a sibling", () => {
    const value = MoneyWhen("type", ["fixed"], Type.Number({ minimum: 0 }));
    expect(moneyMarker(value)).toEqual({ when: { field: "type", in: ["fixed"] } });
    expect(value).toMatchObject({ type: "number", minimum: 0 });
  });

  it("knows money() columns, so row views mark them", () => {
    const table = pgTable("money_test", {
      id: text("id"),
      amount: money("amount").notNull(),
      quantity: integer("quantity"),
    });
    expect(isMoneyColumn(table.amount)).toBe(true);
    expect(isMoneyColumn(table.quantity)).toBe(false);
    const properties = rowProperties(table);
    expect(moneyMarker(properties.amount)).toBe(true);
    expect(moneyMarker(properties.quantity)).toBeUndefined();
  });
});

describe("addMoney, multiplyMoney", () => {
  it("are exact inside the safe range, up to its last integer", () => {
    expect(addMoney()).toBe(0);
    expect(addMoney(1999, 500, 1)).toBe(2500);
    expect(addMoney(MAX_TOTAL - 1, 1)).toBe(MAX_TOTAL);
    expect(addMoney(-5, 3)).toBe(-2);
    expect(multiplyMoney(1999, 3)).toBe(5997);
    expect(multiplyMoney(MAX_AMOUNT, 900)).toBe(9_000_000_000_000_000);
  });

  it("refuse a sum or product past 2^53 - 1 with 400 invalid_data, never a rounded number", () => {
    const refused = (f: () => number) => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(KasseError);
        expect(error).toMatchObject({ type: "invalid_data", status: 400 });
        expect((error as Error).message).toMatch(/largest amount Kasse computes exactly/);
        return;
      }
      throw new Error("not refused");
    };
    refused(() => addMoney(MAX_TOTAL, 1));
    refused(() => addMoney(MAX_TOTAL, MAX_TOTAL, -MAX_TOTAL));
    refused(() => addMoney(0.5));
    refused(() => multiplyMoney(MAX_AMOUNT, 1000));
    refused(() => multiplyMoney(2 ** 53, 1));
  });
});
