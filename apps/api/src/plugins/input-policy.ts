import type { FastifyInstance } from "fastify";
import { errors } from "@kasse/core";

/**
 * How deep a JSON body may nest (objects and arrays). Kasse's deepest body is 5 levels (a product
 * with variants, their prices and price rules); a bound keeps every recursive consumer (the
 * validator, JSON.stringify, PostgreSQL's jsonb parser) far from its stack limit.
 */
export const MAX_JSON_DEPTH = 32;

const NUL = /\0/;
// In a `u` regex a well-formed surrogate pair is one code point: only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

const stringProblem = (text: string): string | null =>
  NUL.test(text)
    ? "contains a NUL character"
    : LONE_SURROGATE.test(text)
      ? "contains an unpaired UTF-16 surrogate"
      : null;

/**
 * Why `value` (a parsed JSON body, query or path parameters) cannot be accepted, or null: a NUL
 * character or a lone UTF-16 surrogate in any key or string (PostgreSQL cannot store the first,
 * and would silently store U+FFFD for the second), or nesting deeper than {@link MAX_JSON_DEPTH}.
 * Walks with an explicit stack, never recursively, so no input can overflow it.
 */
function inputProblem(value: unknown, part: string): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: "" }];
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop()!;
    if (typeof node === "string") {
      const problem = stringProblem(node);
      if (problem) return `${path ? `Field '${path}'` : `The ${part}`} ${problem}`;
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return `The ${part} is nested deeper than ${MAX_JSON_DEPTH} levels`;
    for (const [key, child] of Object.entries(node)) {
      const problem = stringProblem(key);
      // The key is not echoed: it is the bad text.
      if (problem) return `A field name in the ${part}${path ? ` at '${path}'` : ""} ${problem}`;
      stack.push({ value: child, depth: depth + 1, path: path ? `${path}.${key}` : key });
    }
  }
  return null;
}

/** Throws 400 `invalid_data` when {@link inputProblem} finds one. */
export function refuseUnsafeInput(value: unknown, part: string): void {
  const problem = inputProblem(value, part);
  if (problem) throw errors.invalidData(problem);
}

/**
 * The input policy for query strings and path parameters (bodies: `json-body.ts`), checked before
 * any guard or handler sees them, so no route can pass a NUL or a lone surrogate to the database.
 */
export function registerInputPolicy(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    refuseUnsafeInput(request.query, "query");
    refuseUnsafeInput(request.params, "path");
  });
}
