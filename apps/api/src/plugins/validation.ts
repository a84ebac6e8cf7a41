import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import fastJsonStringify from "fast-json-stringify";
import type { FastifySchema, FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import { MAX_JSON_LENGTH_KEYWORD } from "@kasse/db";

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

/** Compiles one response schema now, as fastify's default serializer compiler does (fast-json-stringify). */
export function compileSerializer(schema: object): (data: unknown) => string {
  let serialize = serializers.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(schema, { schema: {} }) as (data: unknown) => string;
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
        ? (fastJsonStringify(transform(schema), { schema: {} }) as (data: unknown) => string)
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
