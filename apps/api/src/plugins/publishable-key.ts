import type { FastifyInstance, FastifyRequest } from "fastify";
import { errors } from "@kasse/core";
import type { ApiKeyService } from "@kasse/modules/api-key";
import type { SalesChannelService } from "@kasse/modules/sales-channel";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The sales channels a `/store/*` request may see (docs/CONTRACT.md "Keys"): the enabled
     * channels of its `x-publishable-api-key` (possibly none), or the default sales channel when
     * the header is absent (none when it is disabled). Set before any store route runs (by the
     * store group's hook); empty outside it. Every store read and write is scoped by it, so a
     * disabled channel is invisible to every route at once.
     */
    salesChannelIds: string[];
    /** The id of the request's publishable key, or null when it sent none. */
    publishableKeyId: string | null;
  }
  interface FastifyInstance {
    /** Cached publishable-key lookups; `clear()` after a key is revoked or its channels change, or a channel changes. */
    publishableKeys: PublishableKeyCache;
  }
}

const PUBLISHABLE_KEY_HEADER = "x-publishable-api-key";

/** How long a resolved key (or the default channel) is trusted: revocation elsewhere takes effect within this. */
const PUBLISHABLE_KEY_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export interface PublishableKeyCache {
  /** The key's id and its enabled channels, or null when no active publishable key has this token. */
  resolve(token: string): Promise<{ id: string; sales_channel_ids: string[] } | null>;
  /** The default sales channel's id, or none when it is disabled. */
  defaultChannelIds(): Promise<string[]>;
  clear(): void;
}

/**
 * A short-lived in-process cache over the api-key module: store requests look their key up on
 * every call. Unknown tokens are not cached, so a new key works at once; a revoked one stops
 * working within {@link PUBLISHABLE_KEY_TTL_MS} on other processes and at once on this one.
 */
export function createPublishableKeyCache(
  apiKeys: Pick<ApiKeyService, "resolvePublishable">,
  channels: Pick<SalesChannelService, "getOrCreateDefault" | "enabled">,
  ttlMs = PUBLISHABLE_KEY_TTL_MS,
): PublishableKeyCache {
  const keys = new Map<string, { value: { id: string; sales_channel_ids: string[] }; expires: number }>();
  let fallback: { ids: string[]; expires: number } | undefined;
  return {
    async resolve(token) {
      const now = Date.now();
      const hit = keys.get(token);
      if (hit && hit.expires > now) return hit.value;
      keys.delete(token);
      const key = await apiKeys.resolvePublishable(token);
      if (!key) return null;
      const value = { id: key.id, sales_channel_ids: await channels.enabled(key.sales_channel_ids) };
      if (keys.size >= MAX_ENTRIES) keys.clear();
      keys.set(token, { value, expires: now + ttlMs });
      return value;
    },
    async defaultChannelIds() {
      const now = Date.now();
      if (fallback && fallback.expires > now) return fallback.ids;
      const channel = await channels.getOrCreateDefault();
      fallback = { ids: channel.is_disabled ? [] : [channel.id], expires: now + ttlMs };
      return fallback.ids;
    },
    clear() {
      keys.clear();
      fallback = undefined;
    },
  };
}

/**
 * Decorates the app with the key cache and every request with an empty store context. The lookup
 * itself is {@link resolveSalesChannels}, a hook of the store route group: it runs on whatever
 * path reaches a store route, however that path was spelled.
 */
export function registerPublishableKey(app: FastifyInstance, cache: PublishableKeyCache): void {
  app.decorate("publishableKeys", cache);
  app.decorateRequest("salesChannelIds", null as unknown as string[]);
  app.decorateRequest("publishableKeyId", null);
  app.addHook("onRequest", async (request) => {
    request.salesChannelIds = [];
  });
}

/**
 * The store group's `onRequest` hook: resolves `x-publishable-api-key` into
 * `request.salesChannelIds` (the default sales channel when the header is absent). A header naming
 * no active publishable key answers 400 `invalid_data`.
 * @example
 * app.addHook("onRequest", resolveSalesChannels(app.publishableKeys)); // routes/store/index.ts
 */
export function resolveSalesChannels(cache: PublishableKeyCache) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers[PUBLISHABLE_KEY_HEADER];
    if (header === undefined) {
      request.salesChannelIds = [...(await cache.defaultChannelIds())];
      return;
    }
    const token = Array.isArray(header) ? header[0] : header;
    const key = token ? await cache.resolve(token) : null;
    if (!key)
      throw errors.invalidData(
        `A valid publishable key is required to proceed with the request (${PUBLISHABLE_KEY_HEADER})`,
      );
    request.publishableKeyId = key.id;
    request.salesChannelIds = [...key.sales_channel_ids];
  };
}
