import type { FastifyReply, FastifyRequest } from "fastify";
import { catalogVersionReader } from "@kasse/db";
import type { App } from "../../app-type";
import { wants, type FieldSelection } from "../../http/fields";
import { createVersionedCache, type VersionedCache } from "../../http/versioned-cache";
import { isMedusaDialect } from "../../plugins/medusa-dialect";

declare module "fastify" {
  interface FastifyInstance {
    /** Store catalog answers of this process, labelled with the catalog version (see {@link catalogAnswer}). */
    catalogCache: VersionedCache;
  }
}

/** Gives the store routes their catalog cache, over the `catalog_version` every catalog write bumps (`CATALOG_TABLES`). */
export function registerCatalogCache(app: App): void {
  app.decorate(
    "catalogCache",
    createVersionedCache({
      version: catalogVersionReader(app.infra.database.db),
      validUntil: () => app.modules.priceList.nextChange(),
      maxEntries: app.config.env.CATALOG_CACHE_ENTRIES,
      maxBytes: app.config.env.CATALOG_CACHE_MB * 1024 * 1024,
      sizeOf: (value) => cachedBytes(value as Cached<unknown>),
    }),
  );
  // The first time a cached answer is sent in a dialect, its serialized text is kept beside it.
  app.addHook("onSend", (request, reply, payload, done) => {
    const slot = unsentBodies.get(request);
    if (slot && reply.statusCode === 200 && typeof payload === "string")
      slot.bodies.set(slot.dialect, Buffer.from(payload));
    done(null, payload);
  });
}

/**
 * A cached answer and its serialized bodies by dialect (Medusa's converts money): a hit sends the
 * stored bytes, skipping the serializer, which was most of a hit's CPU (a page of 15 products is
 * ~90 kB of JSON). Both live and go together in one cache entry, under one catalog version.
 */
interface Cached<T> {
  answer: T;
  bodies: Map<string, Buffer>;
}

/**
 * What an entry costs the process: its answer's objects, about the size of their JSON text, and
 * the body kept beside them for the dialect it is sent in (bodies are added after it is stored).
 * Pages differ by a hundredfold (`limit`, `fields`), so the cache is bounded by this, not only by count.
 */
const cachedBytes = (cached: Cached<unknown>): number => 2 * (JSON.stringify(cached.answer)?.length ?? 0);

/** Requests answering a cached answer whose body is not stored yet in their dialect (filled by the onSend hook). */
const unsentBodies = new WeakMap<FastifyRequest, { bodies: Map<string, Buffer>; dialect: string }>();

/** What fastify sends with a serialized JSON answer. */
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A store catalog answer, from this process's cache when the catalog has not changed since it was
 * read: the key is the route, the sales channels, the customer's groups (they select price lists)
 * and the whole validated query (region, currency, filters, page, `fields`). Answers showing stock
 * (`inventoryPath` asked for) are read fresh: stock changes with every checkout, which bumps no version.
 */
export async function catalogAnswer<T>(
  app: App,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { channels: string[]; selection: FieldSelection; inventoryPath: string },
  read: (customerGroupIds: string[]) => Promise<T>,
): Promise<T | undefined> {
  const groups = await customerGroupIds(app, request);
  if (wants(scope.selection, scope.inventoryPath)) return read(groups);
  const key = JSON.stringify([
    request.routeOptions.url,
    request.params,
    scope.channels,
    groups,
    canonical(request.query),
  ]);
  const cached = await app.catalogCache.read<Cached<T>>(key, async () => ({
    answer: await read(groups),
    bodies: new Map(),
  }));
  const dialect = isMedusaDialect(request) ? "medusa" : "kasse";
  const body = cached.bodies.get(dialect);
  if (body) {
    // Sent here, so the handler resolves with nothing and fastify serializes nothing.
    void reply.header("content-type", JSON_TYPE).send(body);
    return undefined;
  }
  unsentBodies.set(request, { bodies: cached.bodies, dialect });
  return cached.answer;
}

/** The query's entries sorted by name, so `?a=1&b=2` and `?b=2&a=1` share an entry. */
const canonical = (query: unknown): Array<[string, unknown]> =>
  Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The groups of the signed-in customer (none for guests): price lists with group rules use them. */
async function customerGroupIds(app: App, request: FastifyRequest): Promise<string[]> {
  const auth = request.auth;
  if (!auth || auth.actor_type !== "customer" || !auth.actor_id) return [];
  return app.modules.customer.groupIdsOfCustomer(auth.actor_id);
}
