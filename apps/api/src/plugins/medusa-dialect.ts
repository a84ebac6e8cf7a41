import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest, FastifySchema } from "fastify";
import { moneyMarker } from "@kasse/core";
import { lazySerializerCompiler } from "./validation";
import {
  answerToMajor,
  assertMinorUnits,
  bodyToMinor,
  MissingCurrencyError,
  type MoneyContext,
  type MoneyWalk,
} from "../http/money";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * What Medusa's dialect needs to read a request body's amounts that the body itself cannot
     * tell: `context` answers defaults shaped like the body (the currency of a payment being
     * captured, the type of a promotion being updated). See `MoneyContext`.
     */
    medusa?: { context?: (request: FastifyRequest) => Promise<MoneyContext | undefined> };
  }
}

/** Set by {@link medusaRewriteUrl} on a raw request that came in under the dialect's base path. */
const DIALECT = Symbol("kasse.medusaDialect");

/** Medusa's default page size where a list request sends no `limit` (its `createFindParams` default). */
const MEDUSA_DEFAULT_LIMIT = 50;

/** The list routes where Medusa v2's validators set another default page size than 50. */
const MEDUSA_ROUTE_LIMITS: Record<string, number> = {
  "/admin/orders": 15,
  "/admin/stock-locations": 20,
  "/admin/shipping-profiles": 20,
  "/store/payment-providers": 20,
};

/** Medusa's default `limit` for a list route (by its registered URL). */
const medusaDefaultLimit = (url: string | undefined): number =>
  (url !== undefined ? MEDUSA_ROUTE_LIMITS[url] : undefined) ?? MEDUSA_DEFAULT_LIMIT;

/**
 * Medusa's dialect (docs/CONTRACT.md "Medusa's dialect"): the whole API again under `basePath` (`/medusa/store/...`),
 * for Medusa's own storefront and dashboard. fastify's `rewriteUrl` strips the base path before
 * routing and marks the request, so there is one route table, one set of hooks and one OpenAPI
 * document; the dialect differs only at the HTTP boundary (money in major units, Medusa's
 * default `limit`). Only `/store`, `/admin`, `/auth` and `/cloud` (the dashboard asks
 * `/cloud/auth` before login) are served there.
 */
export function medusaRewriteUrl(basePath: string): (req: IncomingMessage) => string {
  const base = basePath.replace(/\/+$/, "");
  return (req) => {
    const url = req.url ?? "/";
    if (!url.startsWith(base)) return url;
    const rest = url.slice(base.length);
    if (!/^\/(store|admin|auth|cloud)(?=[/?#]|$)/.test(rest)) return url;
    (req as IncomingMessage & { [DIALECT]?: boolean })[DIALECT] = true;
    return rest;
  };
}

/** Whether the request speaks Medusa's dialect (came in under the base path). */
export const isMedusaDialect = (request: FastifyRequest): boolean =>
  (request.raw as IncomingMessage & { [DIALECT]?: boolean })[DIALECT] === true;

/**
 * `fields` with `currency_code` named beside every narrowed selection (`id,total` →
 * `id,total,currency_code`; `items.total` → also `items.currency_code`), so an answer narrowed by
 * a Medusa client still carries the currency its amounts are converted in (where the record has
 * one). A selection that keeps the defaults (`*`, `+x`, `-x` only) already has it; removing
 * `currency_code` (`-currency_code`) is ignored for the same reason.
 */
export function withCurrencyFields(fields: string): string {
  const parts = fields
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p && !/^-(.+\.)?currency_code$/.test(p));
  if (parts.length === 0) return "";
  const bare = parts.filter((p) => !/^[*+-]/.test(p) && !p.endsWith("*"));
  if (bare.length === 0) return parts.join(",");
  const extra = new Set<string>(["currency_code"]);
  for (const path of bare) {
    const segments = path.split(".");
    for (let i = 1; i < segments.length; i++) extra.add(`${segments.slice(0, i).join(".")}.currency_code`);
  }
  for (const p of parts) extra.delete(p);
  return [...parts, ...extra].join(",");
}

/**
 * A copy of a response schema where money amounts are JSON numbers rather than integers, so the
 * serializer writes Medusa's `19.99` as it is (an integer schema would round it). Both dialects
 * serialize with it: an integer is the same number either way.
 */
export function moneyAsNumber(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(moneyAsNumber);
  if (!schema || typeof schema !== "object") return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    copy[key] = key === "enum" || key === "const" || key === "default" ? value : moneyAsNumber(value);
  }
  if (moneyMarker(schema as never) && copy.type === "integer") copy.type = "number";
  return copy;
}

/** The response schema fastify will serialize an answer of `status` with. */
export function responseSchema(schema: FastifySchema | undefined, status: number): unknown {
  const responses = schema?.response as Record<string, unknown> | undefined;
  if (!responses) return undefined;
  return responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
}

/**
 * The dialect's hooks: a request body's amounts become minor units before validation (400
 * `invalid_data` for an amount finer than its currency), an answer's become major units before
 * serialization, and a list without `limit` gets Medusa's default. Which fields are money is
 * read from the route's schemas (`Money`, `MoneyView`, `MoneyWhen` in `@kasse/db`); no route
 * converts anything itself.
 */
export function registerMedusaDialect(app: FastifyInstance, options: { checkResponses?: boolean } = {}): void {
  let digits: Promise<Map<string, number>> | undefined;
  const currencyDigits = () =>
    (digits ??= app.modules.currency.list({}, { limit: 1000, offset: 0 }).then(
      ({ items }) => new Map(items.map((c) => [c.code, c.decimal_digits])),
      (error: unknown) => {
        digits = undefined;
        throw error;
      },
    ));
  const walk = async (): Promise<MoneyWalk> => {
    const table = await currencyDigits();
    return {
      digits: (code) => table.get(code.toLowerCase()) ?? 2,
      regionCurrency: async (id) => {
        const region = await app.modules.region.retrieve(id).catch(() => undefined);
        return region?.currency_code;
      },
    };
  };

  if (!options.checkResponses) {
    app.setSerializerCompiler(lazySerializerCompiler((schema) => moneyAsNumber(schema) as object));
  }

  app.addHook("preValidation", async (request) => {
    if (!isMedusaDialect(request)) return;
    const schema = request.routeOptions.schema;
    const query = request.query as Record<string, unknown> | undefined;
    const querySchema = schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    if (query && typeof query === "object" && querySchema?.properties?.limit && query.limit === undefined)
      query.limit = String(medusaDefaultLimit(request.routeOptions.url));
    if (query && typeof query.fields === "string") query.fields = withCurrencyFields(query.fields);
    if (schema?.body && request.body !== undefined && request.body !== null && typeof request.body === "object") {
      const context = await request.routeOptions.config.medusa?.context?.(request);
      request.body = await bodyToMinor(request.body, schema.body, await walk(), context);
    }
  });

  app.addHook("preSerialization", async (request, reply, payload) => {
    if (payload === null || typeof payload !== "object") return payload;
    const schema = responseSchema(request.routeOptions.schema, reply.statusCode);
    if (!schema) return payload;
    if (!isMedusaDialect(request)) {
      // Test apps: the serializer takes money as any number, so check the root's are integers here.
      if (options.checkResponses) assertMinorUnits(payload, schema);
      return payload;
    }
    // Amounts kept by region (a shipping option's region price) are in its currency: regions are
    // looked up once the walk has met them, then the answer is converted again.
    const regions = new Map<string, string>();
    const unknown = new Set<string>();
    const base = await walk();
    const convert = () =>
      answerToMajor(payload, schema, {
        ...base,
        knownRegionCurrency: (id) => {
          const code = regions.get(id);
          if (code === undefined) unknown.add(id);
          return code;
        },
      });
    try {
      // Each pass stops at the first amount it cannot read: look up the regions it met, and retry
      // while that taught something new (at most once per region).
      for (;;) {
        try {
          return convert();
        } catch (error) {
          const fresh = [...unknown].filter((id) => !regions.has(id));
          if (!(error instanceof MissingCurrencyError) || fresh.length === 0) throw error;
          for (const id of fresh) regions.set(id, (await base.regionCurrency!(id)) ?? "");
          unknown.clear();
        }
      }
    } catch (error) {
      if (error instanceof MissingCurrencyError)
        request.log.error(
          { err: error, route: request.routeOptions.url },
          "Medusa dialect: an amount without a currency",
        );
      throw error;
    }
  });
}
