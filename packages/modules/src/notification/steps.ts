import { definitions } from "@kasse/workflows";
import type { NotificationInput } from "./shapes";
import type { NotificationService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { notification: NotificationService };

const { step } = definitions<StepModules>();

/** Delivery attempts in all, and the first retry delay (doubled per attempt, with jitter). */
export const DELIVERY_RETRY = { attempts: 4, backoffMs: 100, maxBackoffMs: 5_000 };

/**
 * The step delivering one outbox message through the process's notification service
 * (`ctx.modules.notification`: its providers come from the configuration, SMTP_URL). Its input
 * is the message id only: the data (a reset token) stays in the outbox row and never enters the
 * workflow journal. An outside effect, so not transactional, and at least once: a message already
 * delivered is not sent again. The engine retries a failed attempt; the last one marks the message
 * `failure`, unless `keep_pending`: then it stays `pending` for a caller that tries again later (an
 * event's subscriber, run again on the dispatcher's retry schedule). Nothing to compensate: a sent
 * message cannot be unsent.
 * @example
 * const wf = workflow("send-notification", (input: { notification_id: string }, ctx) => ctx.run(deliverNotificationStep, input));
 */
export const deliverNotificationStep = step("deliver-notification", {
  transactional: false,
  retry: DELIVERY_RETRY,
  invoke: async (input: { notification_id: string; keep_pending?: boolean }, ctx) => {
    const final = !input.keep_pending && ctx.attempt >= DELIVERY_RETRY.attempts;
    const row = await ctx.modules.notification.deliver(input.notification_id, { final });
    return { output: { id: row.id, status: row.status } };
  },
});

/**
 * The step writing one message to the outbox inside a workflow's transaction, so that the message
 * exists exactly when the change it announces does; {@link deliverNotificationStep} (in its own
 * workflow) sends it afterwards, through the process's notification service (`ctx.modules.notification`).
 * Its input's `data` may hold a secret (a token): not journaled, and kept out of errors. Nothing
 * to undo when it is a workflow's last step.
 */
export const queueNotificationStep = step("queue-notification", {
  secret: { input: ["data"] },
  invoke: async (input: NotificationInput, ctx) => {
    const row = await ctx.modules.notification.create(input);
    return { output: { id: row.id } };
  },
});
