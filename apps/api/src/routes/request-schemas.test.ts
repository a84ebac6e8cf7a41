import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { Email, Id, MAX_JSON_LENGTH_KEYWORD, Metadata, OptionalMetadata, ProviderData, Title } from "@kasse/core";
import { useRouteWalk } from "../testing/routes";

type Schema = Record<string, unknown>;
const plain = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema)) as Schema;
const METADATA = plain(Metadata());

/**
 * Extra query parameters a route takes and ignores, with the reason; every other place in a request
 * schema that admits a string must bound its length.
 */
const IGNORED_EXTRAS = new Set([
  // The OAuth providers add their own parameters to the callback (Google: scope, authuser, prompt).
  "GET /auth/:actor_type/:provider/callback querystring",
  "GET /auth/:provider/callback querystring",
]);

/**
 * Every place in `schema` that accepts a string of unbounded length (a string without
 * `maxLength`, a schema that accepts anything, an open object), every integer without a maximum,
 * and every `metadata` that is not the shared `Metadata()` schema. Paths are dotted from the
 * request part.
 */
function unboundedStrings(schema: Schema, at: string, allowExtras: boolean): string[] {
  const found: string[] = [];
  const visit = (node: Schema, path: string, key: string | undefined) => {
    if (key === "metadata") {
      const variants = Array.isArray(node.anyOf) ? (node.anyOf as Schema[]).filter((s) => s.type !== "null") : [node];
      if (!variants.every((s) => isDeepStrictEqual(s, METADATA)))
        found.push(`${path}: metadata is not the shared Metadata() schema`);
      return;
    }
    if (node.const !== undefined || Array.isArray(node.enum)) return;
    if (typeof node[MAX_JSON_LENGTH_KEYWORD] === "number") return;
    for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
      if (Array.isArray(node[combinator]))
        for (const [i, branch] of (node[combinator] as Schema[]).entries()) visit(branch, `${path}|${i}`, key);
    }
    const types =
      node.type === undefined ? [] : Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
    if (types.length === 0 && !node.anyOf && !node.oneOf && !node.allOf && !node.not)
      found.push(`${path}: accepts anything`);
    if (types.includes("string") && typeof node.maxLength !== "number") found.push(`${path}: string without maxLength`);
    // An integer column overflows (a 500) where a JSON number does not: every integer is bounded too.
    if (types.includes("integer") && typeof node.maximum !== "number") found.push(`${path}: integer without maximum`);
    if (types.includes("array")) {
      if (node.items && typeof node.items === "object") visit(node.items as Schema, `${path}[]`, undefined);
      else found.push(`${path}: array of anything`);
    }
    if (types.includes("object")) {
      for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>))
        visit(child, path ? `${path}.${name}` : name, name);
      for (const [pattern, child] of Object.entries((node.patternProperties ?? {}) as Record<string, Schema>))
        visit(child, `${path}[${pattern}]`, undefined);
      const extra = node.additionalProperties;
      if (typeof extra === "object" && extra !== null) visit(extra as Schema, `${path}[*]`, undefined);
      else if (extra !== false && !node.patternProperties && !allowExtras)
        found.push(`${path || "(root)"}: takes any extra field`);
    }
  };
  visit(schema, "", undefined);
  return found.map((f) => `${at} ${f}`);
}

const walk = useRouteWalk();

describe("every request schema bounds its strings", () => {
  it("the walk finds what it looks for", () => {
    const loose = Type.Object(
      {
        ok: Id(),
        name: Type.String(),
        tags: Type.Optional(Type.Array(Type.Union([Type.String({ maxLength: 5 }), Type.String()]))),
        data: Type.Record(Type.String(), Type.Unknown()),
        bounded: ProviderData(),
        metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
        nested: Type.Object({ metadata: OptionalMetadata(), kind: Type.Literal("x") }, { additionalProperties: false }),
        open: Type.Object({}),
        quantity: Type.Integer({ minimum: 1 }),
      },
      { additionalProperties: false },
    );
    expect(unboundedStrings(plain(loose), "body", false)).toEqual([
      "body name: string without maxLength",
      "body tags[]|1: string without maxLength",
      "body data[^(.*)$]: accepts anything",
      "body metadata: metadata is not the shared Metadata() schema",
      "body open: takes any extra field",
      "body quantity: integer without maximum",
    ]);
  });

  it("sees the app's routes", () => {
    expect(walk.routes.length).toBeGreaterThan(200);
  });

  it("gives every string in a body, query or path schema a maximum length, every integer a maximum, and every metadata the shared limits", () => {
    const problems: string[] = [];
    for (const route of walk.routes) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (methods.every((m) => m === "HEAD")) continue;
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      for (const method of methods) {
        for (const part of ["body", "querystring", "params"] as const) {
          const partSchema = schema[part] ?? (part === "querystring" ? schema.query : undefined);
          if (!partSchema) continue;
          const label = `${method} ${route.url} ${part}`;
          // Path parameters are the router's (no others can arrive); some callbacks take extras they ignore.
          problems.push(...unboundedStrings(plain(partSchema), label, part === "params" || IGNORED_EXTRAS.has(label)));
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * Fields of one line of human text (names, address lines, titles): what they hold is written into
 * emails, so each must refuse control characters (`Title()`'s pattern).
 */
const SINGLE_LINE_FIELD =
  /^(name|title|subtitle|label|first_name|last_name|company|company_name|address_name|address_1|address_2|city|province|postal_code|phone)$/;
const SINGLE_LINE = plain(Title()).pattern as string;
const EMAIL = plain(Email()).pattern as string;

/** Email fields that only look an existing account up (the address mailed is the stored one), with the reason. */
const LOOKUP_EMAILS = new Set([
  // A reset is mailed to the identity found, never to the text sent; an unknown address is answered the same.
  "POST /auth/:actor_type/emailpass/reset-password body email",
]);

/** Every string field named like one line of text without the single-line pattern, and every `email` that is not `Email()`. */
function looseText(schema: Schema, at: string): string[] {
  const found: string[] = [];
  const visit = (node: Schema, path: string, key: string | undefined) => {
    for (const combinator of ["anyOf", "oneOf", "allOf"] as const)
      if (Array.isArray(node[combinator])) for (const branch of node[combinator] as Schema[]) visit(branch, path, key);
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? (node.type as string[]) : [node.type];
    if (types.includes("string") && key !== undefined && node.const === undefined && !Array.isArray(node.enum)) {
      if (SINGLE_LINE_FIELD.test(key) && node.pattern !== SINGLE_LINE)
        found.push(`${at} ${path}: one line of text that takes control characters`);
      if (key === "email" && node.pattern !== EMAIL && !LOOKUP_EMAILS.has(`${at} ${path}`))
        found.push(`${at} ${path}: an email that is not Email()`);
    }
    if (types.includes("array") && node.items && typeof node.items === "object")
      visit(node.items as Schema, `${path}[]`, key);
    for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>))
      visit(child, path ? `${path}.${name}` : name, name);
  };
  visit(schema, "", undefined);
  return [...new Set(found)];
}

describe("every request's text is one line where it should be, and every email an address", () => {
  it("the walk finds what it looks for", () => {
    const loose = Type.Object({
      name: Title(),
      address: Type.Object({ city: Type.String({ maxLength: 10 }), phone: Type.Union([Title(), Type.Null()]) }),
      email: Type.String({ maxLength: 320 }),
      customer: Type.Object({ email: Email() }),
    });
    expect(looseText(plain(loose), "body")).toEqual([
      "body address.city: one line of text that takes control characters",
      "body email: an email that is not Email()",
    ]);
  });

  it("in every body", () => {
    const problems: string[] = [];
    for (const route of walk.routes) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const body = (route.schema as Schema | undefined)?.body;
      if (body) for (const method of methods) problems.push(...looseText(plain(body), `${method} ${route.url} body`));
    }
    expect(problems).toEqual([]);
  });
});
