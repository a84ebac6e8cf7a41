import { deriveKey, errors, generateId, isEmailAddress, KasseError, scrubError, toKasseError } from "@kasse/core";
import { viewPage, type ListPaging } from "@kasse/db";
import type { NotificationProvider } from "./provider";
import { notificationQueries as q } from "./queries";
import type { NotificationRow } from "./schema";
import type { NotificationFilters, NotificationInput } from "./shapes";
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

/**
 * Notifications: an outbox row per message, delivered by a provider (`log`, `smtp`, custom)
 * with bounded retries. Secret data (reset and invite tokens, named by `secret_keys`) is stored
 * encrypted (AES-256-GCM) until delivery ends, then erased; reads never show it. Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const notifications = createNotificationService({ providers: [createLogProvider(log)], secret: config.jwt.secret });
 * await notifications.send({ to: "ana@example.com", channel: "email", template: "auth.password_reset", data: { token } , secret_keys: ["token"] });
 */
export function createNotificationService(options: NotificationServiceOptions) {
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
      return (await q.insert({
        id: generateId("noti"),
        to: input.to,
        channel: input.channel,
        template: input.template,
        data: sealSecretData(input.data, input.secret_keys ?? [], dataKey),
        secret_keys: input.secret_keys ?? [],
        provider_id: provider.id,
        resource_type: input.resource_type ?? null,
      }))!;
    },

    /**
     * One delivery attempt of a pending message. Throws the provider's error when it fails, so a
     * caller (a workflow step or {@link send}) can retry; after `final` attempts it is `failure`.
     * A message already delivered is not sent again. Secret data is opened only here, and erased
     * when delivery ends; errors and `last_error` never carry it.
     */
    async deliver(id: string, attemptOptions: { final?: boolean } = {}): Promise<NotificationRow> {
      const row = await q.byId({ id });
      if (!row) throw errors.notFound(`Notification with id: ${id} was not found`);
      if (row.status !== "pending") return redact(row);
      const provider = options.providers.find((p) => p.id === row.provider_id);
      if (!provider) throw errors.unexpectedState(`Notification provider '${row.provider_id}' is not configured`);
      const attempts = row.attempts + 1;
      /** Records a failed attempt; the last one fails the message, its secret data erased. */
      const failed = (last_error: string, final: boolean) =>
        q.recordAttempt({
          id,
          attempts,
          last_error,
          ...(final ? { status: "failure" as const, data: redact(row).data } : {}),
          now: new Date(),
        });
      const data = openSecretData(row.data, row.secret_keys, dataKey);
      if (!data) {
        const unreadable = new KasseError(
          "unexpected_state",
          `The secret data of notification ${id} cannot be decrypted (the server secret changed); it cannot be delivered`,
          { retryable: false },
        );
        await failed(unreadable.message, true);
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
        const now = new Date();
        const sent = await q.recordAttempt({
          id,
          attempts,
          status: "success",
          sent_at: now,
          external_id: result.external_id ?? null,
          last_error: null,
          data: redact(row).data,
          now,
        });
        return redact(sent!);
      } catch (thrown) {
        // A provider may quote the message it failed to send: its error keeps no secret.
        const error = secrets.size > 0 ? scrubError(toKasseError(thrown), secrets) : thrown;
        const message = error instanceof Error ? error.message : String(error);
        await failed(message, attemptOptions.final ?? false);
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
      const row = await q.byId({ id });
      if (!row) throw errors.notFound(`Notification with id: ${id} was not found`);
      return redact(row);
    },

    list: (filters: NotificationFilters, page: ListPaging) =>
      viewPage(q.list(filters, page), (rows) => rows.map(redact)),

    /** How many messages wait for delivery (`pending`): the notification backlog. */
    pendingCount: q.pendingCount,

    /** Releases provider resources (SMTP connections). */
    async close(): Promise<void> {
      await Promise.all(options.providers.map((p) => p.close?.()));
    },
  };
  return service;
}

export type NotificationService = ReturnType<typeof createNotificationService>;
