import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { MAX_JSON_LENGTH_KEYWORD } from "@kasse/db";

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

/** A value's length as `x-max-json-length` counts it: a string's characters, anything else its JSON text. */
const jsonLength = (value: unknown): number => (typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0));

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

/** Compiles route schemas with the right Ajv per request part. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  (httpPart === "body" ? body : text).compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
