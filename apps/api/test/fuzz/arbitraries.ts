import fc from "fast-check";

/** A JSON schema as the OpenAPI document holds it. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

/** Real values to mix in by field name (`id`, `region_id`, …), so valid requests reach past "not found". */
export type Pools = Map<string, Set<string>>;

const ANY_JSON = fc.jsonValue({ maxDepth: 2 });

/**
 * Values a schema accepts (mostly: a pattern or a format is honoured, cross-field rules are not),
 * with real ids from `pools` for fields named like ids.
 */
export function valid(
  schema: JsonSchema | undefined,
  pools: Pools,
  resolve: (ref: string) => JsonSchema,
  name = "",
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema) return ANY_JSON;
  if (schema.$ref) return valid(resolve(schema.$ref), pools, resolve, name, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => valid(branch, pools, resolve, name, depth + 1)));
  if (schema.allOf?.length) return valid(schema.allOf[0], pools, resolve, name, depth);
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type
      ? [schema.type]
      : schema.properties
        ? ["object"]
        : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => valid({ ...schema, type }, pools, resolve, name, depth)));
  switch (types[0]) {
    case "string":
      return stringFor(schema, pools, name);
    case "integer":
      return fc.integer({
        min: schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -5),
        max: Math.min(schema.maximum ?? 10_000, 1_000_000),
      });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 1_000_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      if (depth > 4) return fc.constant([]);
      return fc.array(valid(schema.items, pools, resolve, singular(name), depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case "object":
      return objectFor(schema, pools, resolve, depth);
    default:
      return ANY_JSON;
  }
}

function objectFor(
  schema: JsonSchema,
  pools: Pools,
  resolve: (ref: string) => JsonSchema,
  depth: number,
): fc.Arbitrary<unknown> {
  if (depth > 5) return fc.constant({});
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (!keys.length) {
    const values = schema.patternProperties
      ? Object.values(schema.patternProperties)[0]
      : typeof schema.additionalProperties === "object"
        ? schema.additionalProperties
        : undefined;
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), valid(values, pools, resolve, "", depth + 1), {
      maxKeys: 3,
    });
  }
  const arbitraries = Object.fromEntries(
    keys.map((key) => [key, valid(properties[key], pools, resolve, key, depth + 1)]),
  );
  return fc.record(arbitraries, { requiredKeys: (schema.required ?? []).filter((key) => keys.includes(key)) });
}

function stringFor(schema: JsonSchema, pools: Pools, name: string): fc.Arbitrary<string> {
  const pool = pools.get(name) ?? (name.endsWith("_ids") ? pools.get(`${name.slice(0, -1)}`) : undefined);
  const generated = ((): fc.Arbitrary<string> => {
    if (schema.format === "email") return fc.emailAddress();
    if (schema.format === "date-time")
      return fc
        .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString());
    if (schema.format === "uri") return fc.webUrl();
    if (schema.pattern) {
      const max = schema.maxLength ?? 64;
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= max);
    }
    return fc.string({
      minLength: schema.minLength ?? 0,
      maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 24, 24)),
    });
  })();
  if (!pool?.size) return generated;
  return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: generated, weight: 1 });
}

const singular = (name: string) =>
  name.endsWith("ies") ? `${name.slice(0, -3)}y` : name.endsWith("s") ? name.slice(0, -1) : name;

// ---- Hostile values -------------------------------------------------------------------------

/** A value of the wrong kind, an extreme number, or a string the database or the parser chokes on. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, "", [], {}, [[]], { a: { b: {} } }),
  fc.constantFrom(1e308, -1e308, 2 ** 63, -(2 ** 63), 9_007_199_254_740_993, 1e-300, 0.5, -0.0),
  fc.constantFrom(
    "a\u0000b",
    "\u0000",
    "\ud800",
    "x\udfffy",
    "\ud83d",
    "%00",
    "\\u0000",
    "' OR 1=1 --",
    '"; drop table product; --',
    "${jndi:ldap://x}",
    "../../etc/passwd",
    "<script>alert(1)</script>",
  ),
  fc.constantFrom("9".repeat(400), "1e309", "NaN", "-Infinity", "0x10", "٣"),
  fc.integer({ min: 3_000, max: 300_000 }).map((n) => "x".repeat(n)),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    { __proto__: null, constructor: { prototype: { polluted: true } } },
    JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  ),
);

/** A JSON text nested `depth` levels deep (arrays or objects), built as text so no stack is needed. */
const deepJson = (depth: number, kind: "array" | "object") =>
  kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** A body replaced whole: deep nesting, `__proto__` keys, metadata too big, the wrong JSON type. */
export const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    deepJson(5_000, "array"),
    deepJson(5_000, "object"),
    deepJson(200, "object"),
    `{"metadata":${deepJson(3_000, "object")}}`,
  ),
  fc.constantFrom(
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"metadata":{"__proto__":{"polluted":true}}}',
  ),
  fc.constantFrom(
    "[]",
    "null",
    "1",
    '"text"',
    "{",
    '{"a":1,}',
    "\u0000",
    '{"a":"\\u0000"}',
    '{"email":"a\\ud800@x.co"}',
  ),
  fc.constantFrom(
    JSON.stringify({
      metadata: Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, "v".repeat(400)])),
    }),
  ),
);

/** A path written differently: percent-encoded letters, doubled or trailing slashes, dot segments, other case. */
export const pathEncoding: fc.Arbitrary<(path: string) => string> = fc.constantFrom(
  (path: string) => path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
  (path: string) => path.replace(/\//g, (s, i: number) => (i === 0 ? s : "//")),
  (path: string) => `${path}/`,
  (path: string) => path.toUpperCase(),
  (path: string) => path.replace(/^\/(\w+)/, "/$1/../$1"),
  (path: string) => path.replace(/^\/(\w+)/, "/$1/%2e%2e/$1"),
  (path: string) => path.replace(/\/([^/]+)$/, "/%2F$1"),
  (path: string) => `${path}%00`,
  (path: string) => `${path};a=b`,
);

/** A path parameter that is no id: empty, encoded, NUL, huge, a traversal. */
export const hostileParam: fc.Arbitrary<string> = fc.constantFrom(
  "%00",
  "%2e%2e",
  "..%2F..%2Fadmin",
  "%ud800",
  "%ED%A0%80",
  "x".repeat(5_000),
  "%25",
  "'",
  "null",
  "undefined",
  "__proto__",
  "constructor",
  "%F0%9F%98%80",
  "a%2Fb",
);

/** Query text `qs` has to survive: deep brackets, huge arrays, repeats, prototype keys, odd `fields` and `order`. */
export const hostileQuery: fc.Arbitrary<string> = fc.constantFrom(
  `a${"[b]".repeat(60)}=1`,
  "limit[]=1&limit[]=2",
  "limit[a]=1",
  "offset=1&offset=2",
  `id=${Array.from({ length: 2_000 }, (_, i) => `x${i}`).join("&id=")}`,
  `id[5000]=x`,
  "__proto__[polluted]=1",
  "constructor[prototype][polluted]=1",
  "toString=1&hasOwnProperty=1",
  `fields=${"a.".repeat(500)}b`,
  `fields=${Array.from({ length: 500 }, (_, i) => `+f${i}`).join(",")}`,
  "fields=*,-id,+id,**,*.*",
  `order=${"-a".repeat(1)}${"b".repeat(2_000)}`,
  "order=-created_at,+id,updated_at,-metadata",
  "q=%25%5F%5C",
  "created_at[$gte]=not-a-date&created_at[$lt][x]=1",
  "q=%E0%A4%A",
  "limit=0x10&offset=1e3",
);
