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

/**
 * Request fields that are money only for some values of a sibling (`MoneyWhen`) and that the
 * dialect cannot decide from the body alone: the sibling is optional and has no default (a rule
 * update's `values` without its `attribute`, a partial update's `value` without `type`). Such a
 * route must give the dialect the stored values (`config.medusa.context`); otherwise the dialect
 * refuses the amount. Also every rule body's `values` (an object with `attribute` and `values`):
 * a rule on a cart total holds money, so its values must be marked.
 */
function undecidableMoney(schema: unknown, at: string): string[] {
  const found: string[] = [];
  const visit = (node: unknown, path: string) => {
    if (!node || typeof node !== "object") return;
    const s = node as Schema;
    for (const combinator of ["anyOf", "oneOf", "allOf"] as const)
      if (Array.isArray(s[combinator])) for (const branch of s[combinator] as unknown[]) visit(branch, path);
    if (s.items) visit(s.items, `${path}[]`);
    const properties = s.properties as Record<string, Schema> | undefined;
    if (!properties || typeof properties !== "object") return;
    const required = new Set((s.required as string[] | undefined) ?? []);
    for (const [name, child] of Object.entries(properties)) {
      const where = path ? `${path}.${name}` : name;
      const marker = markerIn(child);
      if (marker && marker !== true && !required.has(marker.when.field) && marker.when.default === undefined)
        found.push(`${at} ${where}: money only by '${marker.when.field}', which the body may leave out`);
      if (name === "values" && "attribute" in properties && !marker)
        found.push(`${at} ${where}: a rule's values without MoneyWhen("attribute", …)`);
      visit(child, where);
    }
  };
  visit(schema, "");
  return [...new Set(found)];
}

/** The money marker of a field's schema or of one of its union branches. */
function markerIn(schema: unknown): ReturnType<typeof moneyMarker> {
  if (!schema || typeof schema !== "object") return undefined;
  const s = schema as Schema;
  const own = moneyMarker(s as never);
  if (own) return own;
  for (const combinator of ["anyOf", "oneOf", "allOf"] as const)
    if (Array.isArray(s[combinator]))
      for (const branch of s[combinator] as unknown[]) {
        const found = markerIn(branch);
        if (found) return found;
      }
  return undefined;
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

  it("the conditional-money walk finds a field the body cannot decide, and an unmarked rule", () => {
    const Rule = Type.Object({ attribute: Type.String(), values: Type.Array(Type.String()) });
    const schema = Type.Object({
      create: Type.Array(
        Type.Object({ attribute: Type.String(), values: MoneyWhen("attribute", ["subtotal"], Type.String()) }),
      ),
      update: Type.Array(
        Type.Object({
          id: Type.String(),
          attribute: Type.Optional(Type.String()),
          values: Type.Optional(MoneyWhen("attribute", ["subtotal"], Type.String())),
        }),
      ),
      budget: Type.Object({
        type: Type.Optional(Type.String()),
        limit: MoneyWhen("type", ["spend"], Type.Integer(), "spend"),
      }),
      rules: Type.Array(Rule),
    });
    expect(undecidableMoney(schema, "X")).toEqual([
      "X update[].values: money only by 'attribute', which the body may leave out",
      'X rules[].values: a rule\'s values without MoneyWhen("attribute", …)',
    ]);
  });

  it("a conditional amount of a body is decided by the body, a default or the route's context; rules are marked", () => {
    const problems: string[] = [];
    for (const route of walk.routes) {
      const schema = route.schema as Schema | undefined;
      if (!schema) continue;
      const name = `${(Array.isArray(route.method) ? route.method : [route.method]).join(",")} ${route.url}`;
      const hasContext = Boolean((route.config as { medusa?: { context?: unknown } } | undefined)?.medusa?.context);
      if (schema.body)
        for (const problem of undecidableMoney(schema.body, `${name} body`))
          if (!hasContext || problem.includes("a rule's values")) problems.push(problem);
      // Answers always carry the sibling; their rules must still be marked.
      for (const [status, answer] of Object.entries((schema.response ?? {}) as Record<string, unknown>))
        problems.push(...undecidableMoney(answer, `${name} ${status}`).filter((p) => p.includes("a rule's values")));
    }
    expect(problems).toEqual([]);
  });
});
