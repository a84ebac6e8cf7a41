import { isDeepStrictEqual } from "node:util";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import fastJsonStringify from "fast-json-stringify";
import type { FastifyInstance } from "fastify";
import { moneyAsNumber } from "./medusa-dialect";

type Schema = Record<string, unknown>;

/**
 * Test apps only: every response is serialized as in production (fast-json-stringify, which
 * drops keys a strict schema does not list and coerces mismatched types silently) and also
 * checked against its documented schema: the answer must validate (types, `required`), must list
 * every key it sends (a resource view's `additionalProperties: true` is a safety net, not a
 * licence), and must serialize to what `JSON.stringify` would give once the keys a strict schema
 * hides are left out. A mismatch throws, so the request answers 500 and the test fails.
 */
export function registerResponseCheck(app: FastifyInstance): void {
  const ajv = addFormats(
    new Ajv({ strict: false, allErrors: true, removeAdditional: true, coerceTypes: false, useDefaults: false }),
  );
  // Many routes share a schema (every error answer), and most are never answered in a test
  // file: compile each one once, when first used.
  const compiled = new Map<
    string,
    { serialize: (payload: unknown) => string; validate: ReturnType<typeof ajv.compile> }
  >();
  const compile = (text: string) => {
    let entry = compiled.get(text);
    if (!entry) {
      // Money as JSON numbers, as production serializes it (Medusa's dialect answers `19.99`).
      const schema = moneyAsNumber(JSON.parse(text)) as Schema;
      entry = { serialize: fastJsonStringify(schema), validate: ajv.compile(closed(schema) as Schema) };
      compiled.set(text, entry);
    }
    return entry;
  };
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    const text = JSON.stringify(schema);
    return (payload: unknown) => {
      const { serialize, validate } = compile(text);
      const out = serialize(payload);
      const plain: unknown = JSON.parse(JSON.stringify(payload) ?? "null");
      const where = `${method} ${url} ${httpStatus}`;
      if (!validate(plain))
        throw mismatch(
          `${where}: the answer does not match its schema: ${ajv.errorsText(validate.errors, { separator: "; " })}`,
        );
      if (!isDeepStrictEqual(plain, JSON.parse(out)))
        throw mismatch(`${where}: the serializer changed the answer: ${firstDifference(plain, JSON.parse(out))}`);
      return out;
    };
  });
}

function mismatch(message: string): Error {
  // Tests build apps without a logger: print it, or the failing test only sees a 500.
  console.error(`[response-check] ${message}`);
  return new Error(message);
}

/**
 * A copy where every object that lists properties must list all it has: open views become
 * closed, strict ones keep hiding. Inside `anyOf`/`oneOf` nothing is stripped (Ajv would strip
 * while trying a branch that then fails); the comparison with the serializer's output still
 * catches a key it drops there.
 */
function closed(schema: unknown, inUnion = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item, inUnion));
  if (!schema || typeof schema !== "object") return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key === "properties" || key === "patternProperties")
      copy[key] = mapValues(value as Schema, (v) => closed(v, inUnion));
    else if (key === "enum" || key === "const" || key === "default") copy[key] = value;
    else copy[key] = closed(value, inUnion || key === "anyOf" || key === "oneOf");
  }
  if (copy.properties && typeof copy.properties === "object") {
    // `true` (an open view): an unlisted key is an error. Absent: fast-json-stringify drops it, so strip it as well.
    if (copy.additionalProperties === true) copy.additionalProperties = { not: {} };
    else if (copy.additionalProperties === undefined && !inUnion) copy.additionalProperties = false;
  }
  return copy;
}

const mapValues = (object: Schema, fn: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));

function firstDifference(a: unknown, b: unknown, path = ""): string {
  if (a && b && typeof a === "object" && typeof b === "object") {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = (a as Schema)[key];
      const y = (b as Schema)[key];
      if (!isDeepStrictEqual(x, y)) return firstDifference(x, y, `${path}/${key}`);
    }
  }
  return `${path || "/"}: ${JSON.stringify(a)?.slice(0, 200)} became ${JSON.stringify(b)?.slice(0, 200)}`;
}
