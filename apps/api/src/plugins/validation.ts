import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import fastJsonStringify from "fast-json-stringify";
import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import { MAX_JSON_LENGTH_KEYWORD } from "@kasse/core";

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

/** A value's length as `x-max-json-length` counts it: a string's characters, anything else its JSON text. */
const jsonLength = (value: unknown): number =>
  typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);

function withKasseKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: MAX_JSON_LENGTH_KEYWORD,
    schemaType: "number",
    // Bodies reach here already bounded in depth by the input policy, so JSON.stringify is safe.
    validate: (max: number, value: unknown) => jsonLength(value) <= max,
    error: { message: (cxt) => `must be at most ${String(cxt.schema)} characters as JSON` },
  });
  return ajv;
}

// Bodies are JSON: types must be exact (no "5" for 5). Query strings and params are text:
// coerce them, and a single value where an array is expected becomes a one-item array.
const body = withKasseKeywords(addFormats(new Ajv({ ...base, coerceTypes: false })));
const text = withKasseKeywords(addFormats(new Ajv({ ...base, coerceTypes: "array" })));

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

// Compiling every route's validators and serializers (a GET's HEAD twin included, each with
// its error answers) took most of a start. Each is compiled when first used instead, once per
// schema object (the error answers are shared by every route); `schemas.test.ts` compiles
// them all eagerly, so a broken schema still fails the tests rather than a first request.
const validators = { body: new WeakMap<object, Validate>(), text: new WeakMap<object, Validate>() };
const serializers = new WeakMap<object, (data: unknown) => string>();

/** Compiles one request schema now, with the right Ajv for the request part (what the lazy compiler does on first use). */
export function compileValidator(schema: object, httpPart: string | undefined): Validate {
  const kind = httpPart === "body" ? "body" : "text";
  let validate = validators[kind].get(schema);
  if (!validate) {
    validate = (kind === "body" ? body : text).compile(schema) as Validate;
    validators[kind].set(schema, validate);
  }
  return validate;
}

type Schema = Record<string, unknown>;

const isNullSchema = (option: unknown): boolean =>
  typeof option === "object" && option !== null && (option as Schema).type === "null" && !("const" in option);

/** An option `nullable` can stand for: one plain type, no reference nor combinator of its own. */
const isPlainOption = (option: Schema): boolean =>
  typeof option.type === "string" && !("$ref" in option) && !option.anyOf && !option.oneOf && !option.allOf;

/**
 * The response schema fast-json-stringify is given: `schema` with its nullable unions (`anyOf: [X,
 * {type: "null"}]`, TypeBox's `Nullable`) written as `X` with `nullable: true`, and unions of string
 * literals as one string `enum`. The JSON written for an answer is the same; what changes is that
 * fast-json-stringify picks an `anyOf` branch by validating the value against each option with Ajv
 * (a nested object's whole tree, on every answer), while `nullable` is one `=== null` test. Whether
 * an answer matches its schema is the response check's business (tests), not the serializer's.
 * The input schema is left as it is (validation and the OpenAPI document read it).
 */
export function serializerSchema(schema: object): object {
  return rewrite(schema as Schema) as object;
}

function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== "object" || node === null) return node;
  const out: Schema = {};
  for (const key of Object.keys(node)) {
    const value = (node as Schema)[key];
    out[key] =
      key === "properties" || key === "patternProperties" || key === "$defs" || key === "definitions"
        ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, rewrite(v)]))
        : key === "const" || key === "enum" || key === "default" || key === "examples" || key === "required"
          ? value
          : rewrite(value);
  }
  const anyOf = out.anyOf;
  if (!Array.isArray(anyOf) || out.oneOf !== undefined) return out;
  const options = (anyOf as Schema[]).filter((option) => !isNullSchema(option));
  const nullable = options.length < anyOf.length;
  const { anyOf: _anyOf, ...siblings } = out;
  const strings =
    options.length > 1 &&
    options.every((o) => typeof o.const === "string" && Object.keys(o).every((k) => k === "const" || k === "type"));
  if (strings)
    return { ...siblings, type: "string", enum: options.map((o) => o.const), ...(nullable ? { nullable: true } : {}) };
  if (nullable && options.length === 1 && isPlainOption(options[0]!))
    return { ...siblings, ...options[0], nullable: true };
  return out;
}

/** Compiles one response schema now, as fastify's default serializer compiler does (fast-json-stringify). */
export function compileSerializer(schema: object): (data: unknown) => string {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(serializerSchema(schema), { schema: {} }) as (data: unknown) => string;
    serializers.set(schema, serialize);
  }
  return serialize;
}

/** Route request schemas, validated with the right Ajv per request part; compiled on first use. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  let compiled: Validate | undefined;
  // Fastify reads `errors` off the function it was given after a failed validation.
  const validate: Validate = (data) => {
    compiled ??= compileValidator(schema as object, httpPart);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate as ReturnType<FastifySchemaCompiler<FastifySchema>>;
};

/**
 * A serializer compiler that compiles each response schema on first use, once per schema object,
 * after `transform` (the Medusa dialect writes money as numbers).
 */
export function lazySerializerCompiler(
  transform?: (schema: object) => object,
): FastifySerializerCompiler<FastifySchema> {
  const cache = new WeakMap<object, (data: unknown) => string>();
  const compile = (schema: object) => {
    let serialize = cache.get(schema);
    if (!serialize) {
      serialize = transform
        ? (fastJsonStringify(serializerSchema(transform(schema)), { schema: {} }) as (data: unknown) => string)
        : compileSerializer(schema);
      cache.set(schema, serialize);
    }
    return serialize;
  };
  return ({ schema }) => {
    let compiled: ((data: unknown) => string) | undefined;
    return (data) => (compiled ??= compile(schema as object))(data);
  };
}

/** Route response schemas, serialized with fast-json-stringify; compiled on first use. */
export const serializerCompiler = lazySerializerCompiler();
