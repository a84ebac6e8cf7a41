import { step } from "@kasse/workflows";
import type { NotificationService } from "./service";

/** Delivery attempts in all, and the first retry delay (doubled per attempt, with jitter). */
export const DELIVERY_RETRY = { attempts: 4, backoffMs: 100, maxBackoffMs: 5_000 };

/**
 * The step delivering one outbox message, bound to a service because providers come from the
 * app's configuration (SMTP_URL). Its input is the message id only: the data (a reset token)
 * stays in the outbox row and never enters the workflow journal. An outside effect, so not
 * transactional, and at least once: a message already delivered is not sent again. The engine
 * retries a failed attempt; the last one marks the message `failure`. Nothing to compensate: a
 * sent message cannot be unsent.
 * @example
 * const deliver = deliverNotificationStep(notifications);
 * const wf = workflow("send-notification", (input: { notification_id: string }, ctx) => ctx.run(deliver, input));
 */
export function deliverNotificationStep(service: NotificationService) {
  return step("deliver-notification", {
    transactional: false,
    retry: DELIVERY_RETRY,
    invoke: async (input: { notification_id: string }, ctx) => {
      const row = await service.deliver(input.notification_id, { final: ctx.attempt >= DELIVERY_RETRY.attempts }, ctx.db);
      return { output: { id: row.id, status: row.status } };
    },
  });
}
