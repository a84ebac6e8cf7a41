import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import {
  deliverNotificationStep,
  type NotificationInput,
  type NotificationRow,
  type NotificationService,
} from "@kasse/modules/notification";

/**
 * Delivers one outbox message (see `deliverNotificationStep`; `keep_pending` leaves it pending when
 * every attempt failed, for a later run); the engine's `ctx.modules.notification` sends it.
 */
export const sendNotificationWorkflow = workflow(
  "send-notification",
  (input: { notification_id: string; keep_pending?: boolean }, ctx) => ctx.run(deliverNotificationStep, input),
);

/**
 * Writes a message to the outbox, then delivers it as a workflow step with retries. Answers the
 * message as it ended (`success`, or `failure` with `last_error`): a failed delivery is recorded,
 * not thrown, so callers such as password reset behave the same whether or not mail went out.
 * @example
 * await sendNotification(app.infra.engine, app.modules.notification, { to, channel: "email", template: "auth.password_reset", data: { token }, secret_keys: ["token"] });
 */
export async function sendNotification(
  engine: Pick<Engine, "execute">,
  service: NotificationService,
  input: NotificationInput,
): Promise<NotificationRow> {
  const row = await service.create(input);
  return deliverNotification(engine, service, row.id);
}

/**
 * Delivers a message already in the outbox (written by a workflow's `queueNotificationStep`), as
 * {@link sendNotification} does: a failed delivery is recorded on the message, not thrown.
 */
export async function deliverNotification(
  engine: Pick<Engine, "execute">,
  service: NotificationService,
  id: string,
): Promise<NotificationRow> {
  try {
    await engine.execute(sendNotificationWorkflow, { notification_id: id }, { idempotencyKey: `notification:${id}` });
  } catch (error) {
    // A delivery that ended in `failure` is an answer; anything else (the engine could not run it) is an error.
    if ((await service.retrieve(id)).status === "pending") throw error;
  }
  return service.retrieve(id);
}
