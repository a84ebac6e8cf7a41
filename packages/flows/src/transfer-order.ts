import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import { registeredCustomerStep } from "@kasse/modules/customer";
import { queueNotificationStep, type NotificationService } from "@kasse/modules/notification";
import { requestOrderTransferStep } from "@kasse/modules/order";
import { deliverNotification } from "./send-notification";

export interface RequestOrderTransferInput {
  order_id: string;
  /** The signed-in customer asking for the order. */
  customer_id: string;
  /** The storefront's address, for the link in the email (`{storefront_url}/order/{id}/transfer/{token}`); null gives the path alone. */
  storefront_url: string | null;
}

export interface RequestOrderTransferResult {
  transfer_request_id: string;
  order_id: string;
  notification_id: string;
}

/**
 * The transfer request workflow: the customer must be registered, the order module opens the
 * request (canceled again if a later step fails), and the email with the token link is written to
 * the outbox in the same saga (through the process's notification service, `ctx.modules.notification`).
 */
export const requestOrderTransferWorkflow = workflow(
  "request-order-transfer",
  async (input: RequestOrderTransferInput, ctx): Promise<RequestOrderTransferResult> => {
    await ctx.run(registeredCustomerStep, {
      customer_id: input.customer_id,
      purpose: `transfer order: ${input.order_id}`,
    });
    const request = await ctx.run(requestOrderTransferStep, {
      order_id: input.order_id,
      customer_id: input.customer_id,
      actor: { actor_type: "customer", actor_id: input.customer_id },
    });
    const message = await ctx.run(queueNotificationStep, {
      to: request.email,
      channel: "email",
      template: "order.transfer_requested",
      data: {
        order_id: request.order_id,
        token: request.token,
        storefront_url: input.storefront_url,
        expires_at: request.expires_at,
      },
      secret_keys: ["token"],
      resource_type: "order",
    });
    return { transfer_request_id: request.id, order_id: request.order_id, notification_id: message.id };
  },
);

/**
 * Requests the transfer of an order to a signed-in customer (Medusa's `POST /store/orders/{id}/transfer/request`)
 * and delivers the email; a failed delivery is recorded on the message (the request stands, and
 * asking again sends a new link).
 */
export async function requestOrderTransfer(
  engine: Pick<Engine, "execute">,
  notifications: NotificationService,
  input: RequestOrderTransferInput,
): Promise<RequestOrderTransferResult> {
  const result = await engine.execute(requestOrderTransferWorkflow, input);
  await deliverNotification(engine, notifications, result.notification_id);
  return result;
}
