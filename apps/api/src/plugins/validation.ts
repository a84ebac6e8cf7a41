import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";

const base: Options = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false };

// Bodies are JSON: types must be exact (no "5" for 5). Query strings and params are text:
// coerce them, and a single value where an array is expected becomes a one-item array.
const body = addFormats(new Ajv({ ...base, coerceTypes: false }));
const text = addFormats(new Ajv({ ...base, coerceTypes: "array" }));

/** Compiles route schemas with the right Ajv per request part. */
export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  (httpPart === "body" ? body : text).compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
