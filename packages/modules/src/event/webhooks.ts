import { randomBytes } from "node:crypto";
import { and, count, desc, eq, inArray, isNull, max, type SQL } from "drizzle-orm";
import { deriveKey, errors, generateId, seal, unseal } from "@kasse/core";
import { isUniqueViolation, type Db, type ListPaging, type Paging, liveRecords } from "@kasse/db";
import { isEventName } from "./catalog";
import { urlProblem } from "./send";
import {
  webhook,
  webhookDelivery,
  type WebhookCreate,
  type WebhookDeliveryRow,
  type WebhookFilters,
  type WebhookRow,
  type WebhookUpdate,
} from "./schema";

export interface WebhookServiceOptions {
  /**
   * The server secret (`JWT_SECRET`). Endpoint secrets must be read back to sign, so they are
   * stored sealed (AES-256-GCM) under a key derived from it, never as they are.
   */
  secret: Uint8Array | string;
  /** Allow loopback, private and link-local endpoints (`WEBHOOK_ALLOW_PRIVATE=true`). */
  allowPrivate?: boolean;
}

/** A webhook as reads show it: the sealed secret left out. */
export type WebhookInfo = Omit<WebhookRow, "secret" | "deleted_at">;

const view = (row: WebhookRow): WebhookInfo => {
  const { secret: _secret, deleted_at: _deleted, ...rest } = row;
  return rest;
};

/** A new signing secret: `whsec_` + 32 random bytes in base64 (Standard Webhooks' format). */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

function checkEvents(events: readonly string[]): string[] {
  const unknown = events.filter((name) => name !== "*" && !isEventName(name));
  if (unknown.length > 0)
    throw errors.invalidData(`Unknown event names: ${unknown.join(", ")} (see the event catalog)`);
  return [...new Set(events)];
}

/**
 * Webhook endpoints (admin CRUD, secrets, the delivery log). Delivery itself is the dispatcher's.
 * @example
 * const webhooks = createWebhookService(db, { secret: config.jwt.secret });
 * const { webhook, secret } = await webhooks.create({ url: "https://example.com/hooks", events: ["order.placed"] });
 */
export function createWebhookService(db: Db, options: WebhookServiceOptions) {
  const key = deriveKey(options.secret, "kasse-webhook-secret");
  const allowPrivate = options.allowPrivate ?? false;

  const checkUrl = (url: string) => {
    const problem = urlProblem(url, allowPrivate);
    if (problem) throw errors.invalidData(problem);
  };

  const live = (id: string) => and(eq(webhook.id, id), isNull(webhook.deleted_at));

  const records = liveRecords(db, webhook, "Webhook", { url: webhook.url });
  const service = {
    allowPrivate,

    async create(input: WebhookCreate): Promise<WebhookInfo & { secret: string }> {
      checkUrl(input.url);
      const secret = newSecret();
      const [row] = await db
        .insert(webhook)
        .values({
          id: generateId("wh"),
          url: input.url,
          events: checkEvents(input.events),
          description: input.description ?? null,
          secret: seal(Buffer.from(secret), key),
        })
        .returning();
      return { ...view(row!), secret };
    },

    async list(filters: WebhookFilters, paging: ListPaging): Promise<{ items: WebhookInfo[]; count: number }> {
      const conditions: SQL[] = [];
      if (filters.id) conditions.push(inArray(webhook.id, filters.id));
      if (filters.enabled !== undefined) conditions.push(eq(webhook.enabled, filters.enabled));
      const { items, count } = await records.list(conditions, paging);
      return { items: items.map(view), count };
    },

    retrieve: async (id: string): Promise<WebhookInfo> => view(await records.retrieve(id)),

    /** Updates an endpoint; `enabled: true` re-enables one Kasse disabled (its failure record cleared). */
    async update(id: string, input: WebhookUpdate): Promise<WebhookInfo> {
      await service.retrieve(id);
      if (input.url !== undefined) checkUrl(input.url);
      const values: Partial<typeof webhook.$inferInsert> = {};
      if (input.url !== undefined) values.url = input.url;
      if (input.events !== undefined) values.events = checkEvents(input.events);
      if (input.description !== undefined) values.description = input.description;
      if (input.enabled !== undefined)
        Object.assign(values, {
          enabled: input.enabled,
          disabled_reason: null,
          ...(input.enabled ? { failing_since: null } : {}),
        });
      if (Object.keys(values).length === 0) return service.retrieve(id);
      const [row] = await db.update(webhook).set(values).where(live(id)).returning();
      return view(row!);
    },

    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      await db.update(webhook).set({ deleted_at: new Date(), enabled: false }).where(live(id));
    },

    /** A new signing secret, shown once; the old one stops signing at once. */
    async rotateSecret(id: string): Promise<WebhookInfo & { secret: string }> {
      await service.retrieve(id);
      const secret = newSecret();
      const [row] = await db
        .update(webhook)
        .set({ secret: seal(Buffer.from(secret), key) })
        .where(live(id))
        .returning();
      return { ...view(row!), secret };
    },

    /** The endpoint's secret for signing (the dispatcher's); throws when it cannot be opened (the server secret changed). */
    openSecret(row: Pick<WebhookRow, "id" | "secret">): string {
      const plain = unseal(row.secret, key);
      if (!plain)
        throw errors.unexpectedState(
          `The secret of webhook ${row.id} cannot be decrypted (the server secret changed); rotate it`,
        );
      return plain.toString("utf8");
    },

    /** The endpoint's delivery attempts, newest first. */
    async listDeliveries(
      id: string,
      filters: { event_id?: string[]; status?: string[] },
      paging: Paging,
    ): Promise<{ items: WebhookDeliveryRow[]; count: number }> {
      await service.retrieve(id);
      const where = and(
        eq(webhookDelivery.webhook_id, id),
        filters.event_id ? inArray(webhookDelivery.event_id, filters.event_id) : undefined,
        filters.status ? inArray(webhookDelivery.status, filters.status as WebhookDeliveryRow["status"][]) : undefined,
      );
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(webhookDelivery)
          .where(where)
          .orderBy(desc(webhookDelivery.created_at), desc(webhookDelivery.attempt), desc(webhookDelivery.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ value: count() }).from(webhookDelivery).where(where),
      ]);
      return { items, count: total?.value ?? 0 };
    },

    /** Schedules one more attempt of a delivery's event to its endpoint, now (same `webhook-id`). */
    async redeliver(id: string, deliveryId: string): Promise<WebhookDeliveryRow> {
      const hook = await service.retrieve(id);
      const [delivery] = await db
        .select()
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.webhook_id, id)));
      if (!delivery) throw errors.notFound(`Webhook delivery with id: ${deliveryId} was not found`);
      if (!hook.enabled) throw errors.notAllowed(`Webhook ${id} is disabled; enable it before redelivering`);
      const [last] = await db
        .select({ value: max(webhookDelivery.attempt) })
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.webhook_id, id), eq(webhookDelivery.event_id, delivery.event_id)));
      try {
        const [row] = await db
          .insert(webhookDelivery)
          .values({
            id: generateId("whd"),
            webhook_id: id,
            event_id: delivery.event_id,
            event_name: delivery.event_name,
            attempt: (last?.value ?? delivery.attempt) + 1,
            status: "scheduled",
            scheduled_at: new Date(),
          })
          .returning();
        return row!;
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.conflict(`Event ${delivery.event_id} is being redelivered to webhook ${id} already; try again`);
        throw error;
      }
    },
  };
  return service;
}

export type WebhookService = ReturnType<typeof createWebhookService>;
