import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { Count, Money, MoneyView, MoneyWhen, moneyMarker } from "@kasse/core";
import { View } from "@kasse/db";
import { useRouteWalk } from "../testing/routes";

type Schema = Record<string, unknown>;

/**
 * A field named like money: Medusa's dialect converts only fields marked `Money`/`MoneyView`/
 * `MoneyWhen`, so a number field with one of these names that is not marked would reach Medusa's
 * clients in minor units (100 times too much).
 */
const MONEY_NAME =
  /(^|_)(amount|price|prices|total|subtotal|balance|refunded|captured|authorized|paid|difference|spend|unit_price|value|limit|used)$/;

/** Number fields (by path from the request part or answer) with a money-like name that are not money, with the reason. */
const NOT_MONEY: Record<string, string> = {
  limit: "the page size of a list query or answer",
};

/**
 * Every number or integer field in `schema` whose name looks like money and carries no money
 * marker; a marker on a branch of a union or on the field itself counts.
 */
function unmarkedMoney(schema: unknown, at: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown, path: string, key: string | undefined, marked: boolean) => {
    if (!node || typeof node !== "object") return;
    const s = node as Schema;
    const here = marked || moneyMarker(s as never) !== undefined;
    for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
      if (Array.isArray(s[combinator])) for (const branch of s[combinator] as unknown[]) visit(branch, path, key, here);
    }
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (
      (types.includes("integer") || types.includes("number")) &&
      key &&
      MONEY_NAME.test(key) &&
      !here &&
      !(path in NOT_MONEY)
    ) {
      found.push(`${at} ${path}: a number named like money without Money()/MoneyView()`);
    }
    if (types.includes("array") && s.items) visit(s.items, `${path}[]`, key, here);
    if (s.properties && typeof s.properties === "object") {
      for (const [name, child] of Object.entries(s.properties as Record<string, unknown>))
        visit(child, path ? `${path}.${name}` : name, name, false);
    }
  };
  visit(schema, "", undefined, false);
  return [...new Set(found)];
}

const walk = useRouteWalk();

describe("every money field of every route is marked for Medusa's dialect", () => {
  it("the walk finds what it looks for", () => {
    const schema = Type.Object({
      total: Type.Integer(),
      items: Type.Array(View({ unit_price: Type.Integer(), quantity: Count(), amount: MoneyView() })),
      price: Type.Union([Money(), Type.Null()]),
      value: MoneyWhen("type", ["fixed"], Type.Number()),
      discount_total: Type.Optional(Type.Integer()),
    });
    expect(unmarkedMoney(schema, "X")).toEqual([
      "X total: a number named like money without Money()/MoneyView()",
      "X items[].unit_price: a number named like money without Money()/MoneyView()",
      "X discount_total: a number named like money without Money()/MoneyView()",
    ]);
  });

  it("in request bodies, queries and answers", () => {
    const problems: string[] = [];
    for (const route of walk.routes) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.includes("HEAD") && methods.length === 1) continue;
      const name = `${methods.join(",")} ${route.url}`;
      const schema = route.schema as Schema | undefined;
      if (!schema) continue;
      for (const part of ["body", "querystring"] as const)
        if (schema[part]) problems.push(...unmarkedMoney(schema[part], `${name} ${part}`));
      for (const [status, answer] of Object.entries((schema.response ?? {}) as Record<string, unknown>))
        problems.push(...unmarkedMoney(answer, `${name} ${status}`));
    }
    expect(problems).toEqual([]);
  });
});
