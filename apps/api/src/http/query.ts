import qs from "qs";

/**
 * Parses a query string the way Medusa clients send it: repeated keys (`a=1&a=2`),
 * brackets (`a[]=1`), indexes (`code[0]=eur`), objects (`created_at[gte]=…`,
 * `created_at[$gte]=…`, `customers[id]=…`).
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  return qs.parse(raw, {
    depth: 4,
    arrayLimit: 1000,
    parameterLimit: 2000,
    allowDots: false,
    comma: false,
    duplicates: "combine",
  });
}

/** A query value as an array: a single value becomes a one-element array. */
export function toArray<T>(value: T | T[] | undefined): T[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}
