import { randomBytes } from "node:crypto";
import { errors, generateId, hashSecret } from "@kasse/core";
import { groupBy, transaction, type ListPaging } from "@kasse/db";
import { apiKeyQueries as q } from "./queries";
import type { ApiKeyRow } from "./schema";
import type { ApiKeyCreate, ApiKeyFilters, ApiKeySalesChannels, ApiKeyUpdate } from "./shapes";

/** `sk_abc***xyz`: enough to recognise a key, useless to use it. */
const redact = (token: string): string => `${token.slice(0, 6)}***${token.slice(-3)}`;

const ID_PREFIX = "apk";

/** The time now, as a column's value (`at`) and as the ISO text a placeholder compared with a column takes (`now`). */
const clock = (at = new Date()) => ({ at, now: at.toISOString() });

/** Whether an actor id names an API key: a request authenticated by a secret key acts as the key (its id). */
const isApiKeyId = (actorId: string): boolean => actorId.startsWith(`${ID_PREFIX}_`);

/**
 * How many API keys may stand between a secret key and the user who made it: keys made by keys
 * (before that was refused) still authenticate while every key of the chain does.
 */
const MAX_CREATOR_CHAIN = 8;

/**
 * A secret key is an admin credential: only an admin user (signed in, not through an API key) may
 * create, rename, revoke or delete one, so a key can never give itself a successor that outlives
 * its revocation. Publishable keys are not credentials: keys may manage them.
 */
function assertMayManage(type: ApiKeyRow["type"], actorId: string): void {
  if (type === "secret" && isApiKeyId(actorId))
    throw errors.notAllowed("Secret API keys are created and managed by an admin user, not by an API key");
}

/** An API key as the API shows it: no hash; a secret key's token only right after creation. */
export type ApiKeyDetails = Omit<ApiKeyRow, "token" | "token_hash"> & {
  token?: string;
  sales_channels?: Array<{ id: string }>;
};

function details(row: ApiKeyRow, channels: string[] | undefined): ApiKeyDetails {
  const { token, token_hash: _hash, ...rest } = row;
  return {
    ...rest,
    ...(row.type === "publishable" && token ? { token } : {}),
    ...(row.type === "publishable" ? { sales_channels: (channels ?? []).map((id) => ({ id })) } : {}),
  };
}

/**
 * Secret and publishable API keys: creation (the secret token is returned once), revocation,
 * publishable keys' sales channels, and the lookups behind request authentication. Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const keys = createApiKeyService();
 * const { api_key } = await keys.create({ title: "CI", type: "secret" }, "user_1");
 */
export function createApiKeyService() {
  const service = {
    /**
     * Creates a key. Any number of secret keys may be active at once (unlike Medusa's one), so a
     * key can be rotated without downtime: create the new one, deploy it, revoke the old one. The
     * answer carries the token, which for a secret key is never shown again.
     * `options.token` sets the token instead of generating one (`kasse seed --publishable-key`,
     * so a rebuilt storefront can keep the key it was built with); it must carry the type's prefix.
     */
    async create(
      input: ApiKeyCreate,
      createdBy: string,
      options: { token?: string } = {},
    ): Promise<ApiKeyDetails & { token: string }> {
      assertMayManage(input.type, createdBy);
      const prefix = input.type === "secret" ? "sk" : "pk";
      if (options.token !== undefined && !new RegExp(`^${prefix}_[A-Za-z0-9_-]{16,128}$`).test(options.token)) {
        throw errors.invalidData(
          `A ${input.type} API key token is ${prefix}_ followed by 16 to 128 letters, digits, _ or -`,
        );
      }
      const token = options.token ?? `${prefix}_${randomBytes(32).toString("hex")}`;
      const created = await q.insert({
        id: generateId(ID_PREFIX),
        token: input.type === "publishable" ? token : null,
        token_hash: hashSecret(token),
        redacted: redact(token),
        title: input.title,
        type: input.type,
        created_by: createdBy,
      });
      return { ...details(created, []), token };
    },

    async retrieve(id: string): Promise<ApiKeyDetails> {
      const found = await q.retrieve(id);
      return details(found, (await channelsOf([found.id])).get(found.id));
    },

    async list(filters: ApiKeyFilters, page: ListPaging): Promise<{ items: ApiKeyDetails[]; count: number }> {
      const { items, count } = await q.list(filters, page);
      const channels = await channelsOf(items.filter((r) => r.type === "publishable").map((r) => r.id));
      return { items: items.map((r) => details(r, channels.get(r.id))), count };
    },

    /** Renames a key; `by` is the actor asking (a secret key is renamed only by a user). */
    async update(id: string, input: ApiKeyUpdate, by: string): Promise<ApiKeyDetails> {
      assertMayManage((await q.retrieve(id)).type, by);
      if (input.title !== undefined) await q.update(id, { title: input.title });
      return service.retrieve(id);
    },

    /**
     * Revokes a key now; a revoked key no longer authenticates anything, nor does a key it made
     * (see {@link verifySecret}). A secret key is revoked only by a user.
     */
    async revoke(id: string, revokedBy: string): Promise<ApiKeyDetails> {
      assertMayManage((await q.retrieve(id)).type, revokedBy);
      if (!(await q.revoke({ id, by: revokedBy, ...clock() }))) {
        await q.retrieve(id);
        throw errors.invalidData(`API key with id: ${id} is already revoked`);
      }
      return service.retrieve(id);
    },

    /** Deletes a key; as Medusa, only a revoked key can be deleted (a secret one only by a user). */
    async delete(id: string, by: string): Promise<void> {
      assertMayManage((await q.retrieve(id)).type, by);
      if (!(await q.softDeleteRevoked({ id, ...clock() }))) {
        await q.retrieve(id);
        throw errors.notAllowed(`Cannot delete api keys that are not revoked - ${id}`);
      }
    },

    /**
     * Adds and removes a publishable key's sales channels. The caller checks that the channel
     * ids exist (the sales-channel module owns them); adding a linked channel again is a no-op.
     */
    async updateSalesChannels(id: string, input: ApiKeySalesChannels): Promise<ApiKeyDetails> {
      return transaction(async () => {
        const found = await q.retrieve(id);
        if (found.type !== "publishable")
          throw errors.invalidData("Sales channels can only be associated with publishable API keys");
        const add = [...new Set(input.add ?? [])];
        const remove = [...new Set(input.remove ?? [])];
        if (add.some((c) => remove.includes(c)))
          throw errors.invalidData("A sales channel cannot be both added and removed");
        if (remove.length) await q.unlink({ id, channels: remove });
        if (add.length) await q.link(add.map((sales_channel_id) => ({ api_key_id: id, sales_channel_id })));
        await q.touch({ id, at: new Date() });
        return service.retrieve(id);
      });
    },

    /**
     * The active secret key with this token (one indexed lookup by hash) and the user its access
     * comes from, or null. A key made by another key (allowed before) counts only while that key
     * is active too, up the chain to the user: `created_by` is that user's id, whom the caller
     * checks (the user module owns users), so a key dies with its maker's access.
     */
    async verifySecret(token: string): Promise<Pick<ApiKeyRow, "id" | "created_by"> | null> {
      const found = await q.activeByHash({ hash: hashSecret(token), type: "secret", now: clock().now });
      if (!found) return null;
      let maker = found.created_by;
      for (let depth = 0; isApiKeyId(maker); depth++) {
        if (depth === MAX_CREATOR_CHAIN) return null;
        const next = await q.activeSecretById({ id: maker, now: clock().now });
        if (!next) return null;
        maker = next.created_by;
      }
      return { id: found.id, created_by: maker };
    },

    /** The sales channels of the given publishable keys (the `publishable_key_id` filter of a channel list). */
    async salesChannelIdsOfKeys(keyIds: string[]): Promise<string[]> {
      return [...new Set([...(await channelsOf(keyIds)).values()].flat())];
    },

    /** The active publishable key with this token and its sales channel ids, or null. */
    async resolvePublishable(token: string): Promise<{ id: string; sales_channel_ids: string[] } | null> {
      const found = await q.activeByHash({ hash: hashSecret(token), type: "publishable", now: clock().now });
      if (!found) return null;
      return { id: found.id, sales_channel_ids: (await channelsOf([found.id])).get(found.id) ?? [] };
    },
  };
  return service;
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** The sales channel ids of each of the keys `ids` (a key without any has no entry). */
async function channelsOf(ids: string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  return groupBy(await q.channelsOf(ids), (l) => l.api_key_id, { value: (l) => l.sales_channel_id });
}
