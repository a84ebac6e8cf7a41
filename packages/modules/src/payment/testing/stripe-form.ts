import type Stripe from "stripe";

/** A request's parameters as Stripe reads its form body: `metadata[k]=v` → `{ metadata: { k: "v" } }`. */
export interface Params {
  [key: string]: string | Params | Array<string | Params>;
}

/** An error answer of the fake: Stripe's HTTP status and `{ error }` body. */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Stripe.StripeRawError & { type: string },
    /**
     * Whether the answer is kept under the request's idempotency key. Stripe keeps the result of
     * every request whose endpoint began executing; one refused by parameter validation is not kept.
     */
    readonly saved = true,
  ) {
    super(error.message);
  }
}

/** A 400 `invalid_request_error` about one parameter, never kept under an idempotency key. */
export const invalidParam = (param: string, message: string, code?: string) =>
  new StripeFailure(400, { type: "invalid_request_error", message, param, ...(code ? { code } : {}) }, false);

/** One bracketed segment of a key (`[b]` and `[0]` in `a[b][0]`). */
const SEGMENT = /\[([^\]]*)\]/g;

/** Decodes a form body (or a query string) the way Stripe reads the SDK's bracketed keys. */
export function decodeForm(body: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const head = key.split("[", 1)[0]!;
    const path = [head, ...[...key.slice(head.length).matchAll(SEGMENT)].map((m) => m[1]!)];
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (typeof node[segment] === "object" ? node[segment] : (node[segment] = {})) as Params;
    });
  }
  return withArrays(root) as Params;
}

/** Objects keyed 0, 1, 2… (the SDK's `expand[0]=…`) become arrays. */
function withArrays(value: string | Params): string | Params | Array<string | Params> {
  if (typeof value === "string") return value;
  const entries = Object.entries(value).map(([k, v]) => [k, withArrays(v as Params)] as const);
  const indexed = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return indexed ? entries.map(([, v]) => v as string | Params) : (Object.fromEntries(entries) as Params);
}

/** Refuses the first parameter not in `allowed`, as Stripe does (`parameter_unknown`). */
export function onlyParams(params: Params, allowed: readonly string[], prefix = ""): void {
  const unknown = Object.keys(params).find((key) => !allowed.includes(key));
  if (unknown === undefined) return;
  const name = prefix ? `${prefix}[${unknown}]` : unknown;
  throw invalidParam(name, `Received unknown parameter: ${name}`, "parameter_unknown");
}

/** A string parameter; Stripe reads an empty value as unset. */
export function text(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw invalidParam(name, `Invalid string: ${name} must be a string`);
  return value;
}

/** A required string parameter (`parameter_missing` when absent). */
export function requiredText(params: Params, name: string): string {
  const value = text(params, name);
  if (value === undefined) throw invalidParam(name, `Missing required param: ${name}.`, "parameter_missing");
  return value;
}

/** A non-negative integer parameter (`parameter_invalid_integer` when it is not one). */
export function integer(params: Params, name: string): number | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw invalidParam(name, `Invalid integer: ${value}`, "parameter_invalid_integer");
  return Number(value);
}

/** A boolean parameter (`true` / `false`). */
export function flag(params: Params, name: string): boolean | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (value !== "true" && value !== "false") throw invalidParam(name, `Invalid boolean: ${value}`);
  return value === "true";
}

/** One of `values`, or undefined when absent. */
export function oneOf<T extends string>(params: Params, name: string, values: readonly T[]): T | undefined {
  const value = text(params, name);
  if (value === undefined) return undefined;
  if (!values.includes(value as T)) throw invalidParam(name, `Invalid ${name}: must be one of ${values.join(", ")}`);
  return value as T;
}

/** A nested object parameter (`automatic_payment_methods[enabled]=true`), or undefined when absent. */
export function object(params: Params, name: string, allowed: readonly string[]): Params | undefined {
  const value = params[name];
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParam(name, `Invalid object: ${name}`);
  onlyParams(value, allowed, name);
  return value;
}

/**
 * `metadata` merged into `current` as Stripe does: a key set to "" is removed; at most 50 keys,
 * keys up to 40 characters and values up to 500.
 */
export function metadata(params: Params, current: Stripe.Metadata = {}): Stripe.Metadata {
  const value = params.metadata;
  if (value === undefined) return current;
  if (value === "") return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalidParam("metadata", "Invalid object: metadata");
  const merged: Stripe.Metadata = { ...current };
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") throw invalidParam(`metadata[${key}]`, `Invalid string: metadata[${key}]`);
    if (key.length > 40) throw invalidParam(`metadata[${key}]`, "Metadata keys can have up to 40 characters.");
    if (v.length > 500) throw invalidParam(`metadata[${key}]`, "Metadata values can have up to 500 characters.");
    if (v === "") delete merged[key];
    else merged[key] = v;
  }
  if (Object.keys(merged).length > 50) throw invalidParam("metadata", "Metadata can have up to 50 keys.");
  return merged;
}
