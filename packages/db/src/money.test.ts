import { describe, expect, it } from "vitest";
import { pgTable, text, integer } from "drizzle-orm/pg-core";
import { Type } from "@sinclair/typebox";
import { money } from "./columns";
import { Amount, Money, moneyMarker, MoneyView, MoneyWhen } from "@kasse/core";
import { isMoneyColumn } from "./money-columns";
import { rowProperties } from "./views";

describe("Money", () => {
  it("marks request and answer amounts, bounded as amounts", () => {
    expect(moneyMarker(Money())).toBe(true);
    expect(Money()).toMatchObject({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
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
