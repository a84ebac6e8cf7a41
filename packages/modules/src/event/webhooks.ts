import { randomBytes } from "node:crypto";
import { deriveKey, errors, generateId, seal, unseal } from "@kasse/core";
import { isUniqueViolation, viewPage, type ListPaging, type Paging } from "@kasse/db";
import { isEventName } from "./catalog";
import { eventQueries as q, type NewDelivery } from "./queries";
import { urlProblem } from "./send";
import type { WebhookDeliveryRow, WebhookRow } from "./schema";
import type { WebhookCreate, WebhookFilters, WebhookUpdate } from "./shapes";

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

const view = ({ secret: _secret, deleted_at: _deleted, ...rest }: WebhookRow): WebhookInfo => rest;

/** A new signing secret: `whsec_` + 32 random bytes in base64 (Standard Webhooks' format). */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** Attempt `attempt` of an event to endpoint `webhook_id`, due at `scheduled_at`. */
export const newDelivery = (
  webhook_id: string,
  { event_id, event_name }: Pick<WebhookDeliveryRow, "event_id" | "event_name">,
  attempt: number,
  scheduled_at: Date,
): NewDelivery => ({
  id: generateId("whd"),
  webhook_id,
  event_id,
  event_name,
  attempt,
  status: "scheduled",
  scheduled_at,
});

function checkEvents(events: readonly string[]): string[] {
  const unknown = events.filter((name) => name !== "*" && !isEventName(name));
  if (unknown.length > 0)
    throw errors.invalidData(`Unknown event names: ${unknown.join(", ")} (see the event catalog)`);
  return [...new Set(events)];
}

/**
 * Webhook endpoints (admin CRUD, secrets, the delivery log). Delivery itself is the dispatcher's.
 * Built once per process; every method runs in the transaction in progress, if any.
 * @example
 * const webhooks = createWebhookService({ secret: config.jwt.secret });
 * const { webhook, secret } = await webhooks.create({ url: "https://example.com/hooks", events: ["order.placed"] });
 */
export function createWebhookService(options: WebhookServiceOptions) {
  const key = deriveKey(options.secret, "kasse-webhook-secret");
  const allowPrivate = options.allowPrivate ?? false;

  const checkUrl = (url: string) => {
    const problem = urlProblem(url, allowPrivate);
    if (problem) throw errors.invalidData(problem);
  };

  const records = q.webhooks;
  const service = {
    allowPrivate,

    async create(input: WebhookCreate): Promise<WebhookInfo & { secret: string }> {
      checkUrl(input.url);
      const secret = newSecret();
      const row = await records.insert({
        id: generateId("wh"),
        url: input.url,
        events: checkEvents(input.events),
        description: input.description ?? null,
        secret: seal(Buffer.from(secret), key),
      });
      return { ...view(row), secret };
    },

    list: (filters: WebhookFilters, paging: ListPaging) =>
      viewPage(q.webhookList(filters, paging), (rows) => rows.map(view)),

    retrieve: async (id: string): Promise<WebhookInfo> => view(await records.retrieve(id)),

    /** Updates an endpoint; `enabled: true` re-enables one Kasse disabled (its failure record cleared). */
    async update(id: string, input: WebhookUpdate): Promise<WebhookInfo> {
      await service.retrieve(id);
      if (input.url !== undefined) checkUrl(input.url);
      const values: Partial<WebhookRow> = {};
      if (input.url !== undefined) values.url = input.url;
      if (input.events !== undefined) values.events = checkEvents(input.events);
      if (input.description !== undefined) values.description = input.description;
      if (input.enabled !== undefined)
        Object.assign(values, {
          enabled: input.enabled,
          disabled_reason: null,
          ...(input.enabled ? { failing_since: null } : {}),
        });
      return view(await records.update(id, values));
    },

    /** Soft-deletes the endpoint, disabled. */
    async delete(id: string): Promise<void> {
      await records.update(id, { deleted_at: new Date(), enabled: false });
    },

    /** A new signing secret, shown once; the old one stops signing at once. */
    async rotateSecret(id: string): Promise<WebhookInfo & { secret: string }> {
      const secret = newSecret();
      const row = await records.update(id, { secret: seal(Buffer.from(secret), key) });
      return { ...view(row), secret };
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
      return q.deliveries(id, filters, paging);
    },

    /** Schedules one more attempt of a delivery's event to its endpoint, now (same `webhook-id`). */
    async redeliver(id: string, deliveryId: string): Promise<WebhookDeliveryRow> {
      const hook = await service.retrieve(id);
      const delivery = await q.deliveryOf({ id: deliveryId, webhook_id: id });
      if (!delivery) throw errors.notFound(`Webhook delivery with id: ${deliveryId} was not found`);
      if (!hook.enabled) throw errors.notAllowed(`Webhook ${id} is disabled; enable it before redelivering`);
      const last = await q.lastAttempt({ webhook_id: id, event_id: delivery.event_id });
      try {
        return (await q.insertDelivery(newDelivery(id, delivery, (last?.value ?? delivery.attempt) + 1, new Date())))!;
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
