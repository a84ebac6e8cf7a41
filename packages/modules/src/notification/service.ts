import { and, count, desc, eq, isNull } from "drizzle-orm";
import { deriveKey, errors, generateId, isEmailAddress, KasseError, scrubError, toKasseError } from "@kasse/core";
import { builtOnce, builtRowWrite, orderBy, type Db, type Paging, listPage, anyOf, param, slot } from "@kasse/db";
import { notification, type NotificationFilters, type NotificationInput, type NotificationRow } from "./schema";
import type { NotificationProvider } from "./provider";
import { renderTemplate } from "./templates";
import { openSecretData, sealSecretData, secretStrings } from "./secret-data";

export interface NotificationServiceOptions {
  /** Tried in order: the first provider serving a message's channel delivers it. */
  providers: NotificationProvider[];
  /**
   * The server secret (`JWT_SECRET`): secret data (`secret_keys`) waits for delivery encrypted
   * under a key derived from it, so any process sharing the secret can deliver it after a crash.
   */
  secret: Uint8Array | string;
  /** Attempts per message when sending through {@link NotificationService.send} (default 3). */
  attempts?: number;
  /** First retry delay, doubled per attempt (default 200 ms). */
  backoffMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const REDACTED = "[redacted]";

/** `data` with its secret values blanked: what is kept once delivery has ended, and what reads show. */
function redact(row: NotificationRow): NotificationRow {
  if (row.secret_keys.length === 0) return row;
  const data = { ...row.data };
  for (const key of row.secret_keys) if (key in data) data[key] = REDACTED;
  return { ...row, data };
}

// Every message's writes and reads, built once (`updated_at` given: a statement built once has no `$onUpdate`).
const insertNotification = builtRowWrite<NotificationRow[]>(notification, (db, row) =>
  db.insert(notification).values(row).returning(),
);
const notificationById = builtOnce<NotificationRow[], { id: string }>((db) =>
  db
    .select()
    .from(notification)
    .where(eq(notification.id, param("id"))),
);
const deliverySent = builtOnce<
  NotificationRow[],
  { id: string; attempts: number; external_id: string | null; data: Record<string, unknown>; now: Date }
>((db) =>
  db
    .update(notification)
    .set({
      status: "success",
      attempts: slot("attempts"),
      sent_at: slot("now"),
      external_id: slot("external_id"),
      last_error: null,
      data: slot("data"),
      updated_at: slot("now"),
    })
    .where(eq(notification.id, param("id")))
    .returning(),
);
// A failed attempt that was the last one: the message fails, its secret data erased.
const deliveryEnded = builtOnce<
  unknown,
  { id: string; attempts: number; last_error: string; data: Record<string, unknown>; now: Date }
>((db) =>
  db
    .update(notification)
    .set({
      attempts: slot("attempts"),
      status: "failure",
      last_error: slot("last_error"),
      data: slot("data"),
      updated_at: slot("now"),
    })
    .where(eq(notification.id, param("id"))),
);
// A failed attempt to be tried again: the message stays pending.
const attemptFailed = builtOnce<unknown, { id: string; attempts: number; last_error: string; now: Date }>((db) =>
  db
    .update(notification)
    .set({ attempts: slot("attempts"), last_error: slot("last_error"), updated_at: slot("now") })
    .where(eq(notification.id, param("id"))),
);

/**
 * Notifications: an outbox row per message, delivered by a provider (`log`, `smtp`, custom)
 * with bounded retries. Secret data (reset and invite tokens, named by `secret_keys`) is stored
 * encrypted (AES-256-GCM) until delivery ends, then erased; reads never show it.
 * @example
 * const notifications = createNotificationService(db, { providers: [createLogProvider(log)], secret: config.jwt.secret });
 * await notifications.send({ to: "ana@example.com", channel: "email", template: "auth.password_reset", data: { token } , secret_keys: ["token"] });
 */
export function createNotificationService(db: Db, options: NotificationServiceOptions) {
  const maxAttempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 200;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const dataKey = deriveKey(options.secret, "kasse-notification-data");

  function providerFor(channel: string): NotificationProvider {
    const provider = options.providers.find((p) => p.channels.includes(channel));
    if (!provider) throw errors.invalidData(`No notification provider serves the channel '${channel}'`);
    return provider;
  }

  const service = {
    /** Writes the message to the outbox (status `pending`); {@link deliver} sends it. */
    async create(input: NotificationInput): Promise<NotificationRow> {
      const provider = providerFor(input.channel);
      // One mailbox, never a list or a display name a mail library would parse (`a@x.test, b@y.test`).
      if (input.channel === "email" && !isEmailAddress(input.to))
        throw errors.invalidData("An email notification's recipient must be one email address");
      const [row] = await insertNotification(db, {
        id: generateId("noti"),
        to: input.to,
        channel: input.channel,
        template: input.template,
        data: sealSecretData(input.data, input.secret_keys ?? [], dataKey),
        secret_keys: input.secret_keys ?? [],
        provider_id: provider.id,
        resource_type: input.resource_type ?? null,
      });
      return row!;
    },

    /**
     * One delivery attempt of a pending message. Throws the provider's error when it fails, so a
     * caller (a workflow step or {@link send}) can retry; after `final` attempts it is `failure`.
     * A message already delivered is not sent again. Secret data is opened only here, and erased
     * when delivery ends; errors and `last_error` never carry it.
     */
    async deliver(id: string, attemptOptions: { final?: boolean } = {}): Promise<NotificationRow> {
      const [row] = await notificationById(db, { id });
      if (!row) throw errors.notFound(`Notification with id: ${id} was not found`);
      if (row.status !== "pending") return redact(row);
      const provider = options.providers.find((p) => p.id === row.provider_id);
      if (!provider) throw errors.unexpectedState(`Notification provider '${row.provider_id}' is not configured`);
      const attempts = row.attempts + 1;
      const data = openSecretData(row.data, row.secret_keys, dataKey);
      if (!data) {
        const unreadable = new KasseError(
          "unexpected_state",
          `The secret data of notification ${id} cannot be decrypted (the server secret changed); it cannot be delivered`,
          { retryable: false },
        );
        await deliveryEnded(db, {
          id,
          attempts,
          last_error: unreadable.message,
          data: redact(row).data,
          now: new Date(),
        });
        throw unreadable;
      }
      const rendered = renderTemplate(row.template, data);
      const secrets = secretStrings(data, row.secret_keys);
      try {
        const result = await provider.send({
          id: row.id,
          to: row.to,
          channel: row.channel,
          template: row.template,
          data,
          secret_keys: row.secret_keys,
          ...rendered,
        });
        const [sent] = await deliverySent(db, {
          id,
          attempts,
          external_id: result.external_id ?? null,
          data: redact(row).data,
          now: new Date(),
        });
        return redact(sent!);
      } catch (thrown) {
        // A provider may quote the message it failed to send: its error keeps no secret.
        const error = secrets.size > 0 ? scrubError(toKasseError(thrown), secrets) : thrown;
        const message = error instanceof Error ? error.message : String(error);
        const final = attemptOptions.final ?? false;
        if (final)
          await deliveryEnded(db, { id, attempts, last_error: message, data: redact(row).data, now: new Date() });
        else await attemptFailed(db, { id, attempts, last_error: message, now: new Date() });
        throw error;
      }
    },

    /**
     * Writes the message and delivers it, retrying with exponential backoff. Never throws for a
     * failed delivery: the row records it (`failure`, `last_error`), so callers such as password
     * reset answer the same whether or not mail went out.
     */
    async send(input: NotificationInput): Promise<NotificationRow> {
      const row = await service.create(input);
      for (let attempt = 1; ; attempt++) {
        try {
          return await service.deliver(row.id, { final: attempt >= maxAttempts });
        } catch {
          if (attempt >= maxAttempts) return service.retrieve(row.id);
          await sleep(backoffMs * 2 ** (attempt - 1));
        }
      }
    },

    async retrieve(id: string): Promise<NotificationRow> {
      const [row] = await notificationById(db, { id });
      if (!row) throw errors.notFound(`Notification with id: ${id} was not found`);
      return redact(row);
    },

    async list(
      filters: NotificationFilters,
      page: Paging & { order?: string },
    ): Promise<{ items: NotificationRow[]; count: number }> {
      const conditions = anyOf(filters, {
        id: notification.id,
        to: notification.to,
        channel: notification.channel,
        template: notification.template,
        status: notification.status,
      });
      const where = and(...conditions);
      const columns = {
        created_at: notification.created_at,
        updated_at: notification.updated_at,
        status: notification.status,
        to: notification.to,
      };
      const order = page.order
        ? orderBy(page.order, columns, notification.id)
        : [desc(notification.created_at), desc(notification.id)];
      const { items: rows, count: total } = await listPage(db, notification, where, order, page);
      return { items: rows.map(redact), count: total };
    },

    /** How many messages wait for delivery (`pending`): the notification backlog. */
    async pendingCount(): Promise<number> {
      const [row] = await db
        .select({ value: count() })
        .from(notification)
        .where(and(eq(notification.status, "pending"), isNull(notification.deleted_at)));
      return row?.value ?? 0;
    },

    /** Releases provider resources (SMTP connections). */
    async close(): Promise<void> {
      await Promise.all(options.providers.map((p) => p.close?.()));
    },
  };
  return service;
}

export type NotificationService = ReturnType<typeof createNotificationService>;
