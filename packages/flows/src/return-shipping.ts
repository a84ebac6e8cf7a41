import { errors } from "@kasse/core";
import type { Engine } from "@kasse/workflows";
import type { Modules } from "@kasse/modules";
import { isReturnOption } from "@kasse/modules/fulfillment";
import type {
  Order,
  OrderEditShippingAdd,
  OrderEditShippingUpdate,
  ReturnShipping,
  OrderReturn,
} from "@kasse/modules/order";
import { createReturnWorkflow } from "./create-return";

/**
 * A return option priced for the order (Medusa's return shipping): 400 unless the option is live
 * and a return option (its `is_return` rule), priced in the order's region or currency or given
 * `customAmount`.
 */
async function returnShippingFor(
  m: Modules,
  order: Order,
  optionId: string,
  customAmount?: number,
): Promise<{ shipping: ReturnShipping; stock_location_id: string | null }> {
  const { items } = await m.fulfillment.listOptions({ id: [optionId] }, { limit: 1, offset: 0 });
  const option = items[0];
  if (!option) throw errors.invalidData(`Shipping option with id: ${optionId} was not found`);
  if (!isReturnOption(option)) throw errors.invalidData(`Shipping option ${optionId} is not a return option`);
  const priced = (await m.fulfillment.returnOptionsFor(order)).find((o) => o.id === option.id);
  const amount = customAmount ?? priced?.amount;
  if (amount === undefined)
    throw errors.invalidData(`Shipping option ${optionId} has no price for this order: give a custom_amount`);
  return {
    shipping: { shipping_option_id: option.id, name: option.name, amount, currency_code: order.currency_code },
    stock_location_id: option.stock_location_id,
  };
}

/** Gives a pending return request its return shipping (Medusa's `POST /admin/returns/{id}/shipping-method`). */
export async function addReturnShipping(m: Modules, returnId: string, input: OrderEditShippingAdd) {
  const draft = await m.returnChange.retrieveReturn(returnId);
  const order = await m.order.retrieve(draft.order_id);
  const { shipping } = await returnShippingFor(m, order, input.shipping_option_id, input.custom_amount);
  return m.returnChange.addRequestShipping(returnId, shipping, input.internal_note);
}

/** Changes a pending request's return shipping price (`custom_amount`) or note. */
export async function updateReturnShipping(
  m: Modules,
  returnId: string,
  actionId: string,
  input: OrderEditShippingUpdate,
) {
  return m.returnChange.updateRequestShipping(returnId, actionId, {
    amount: input.custom_amount,
    internal_note: input.internal_note,
  });
}

/** What a shopper sends to return items of their order (Medusa's `POST /store/returns`). */
export interface StoreReturnInput {
  order_id: string;
  items: Array<{ id: string; quantity: number; reason_id?: string | null }>;
  return_shipping: { option_id: string };
  location_id?: string;
}

/**
 * A signed-in customer's return of units of their own order (Medusa's `POST /store/returns`):
 * anyone else's order, or a guest order, is 404 as if it did not exist. The return option is
 * priced for the order (the shopper sets no price); the units go back to `location_id`, by default
 * the option's stock location. Then the create-return saga: the return `requested`, with its shipping.
 */
export async function requestStoreReturn(
  engine: Pick<Engine, "execute">,
  m: Modules,
  customerId: string,
  input: StoreReturnInput,
): Promise<OrderReturn> {
  const order = await m.order.retrieve(input.order_id);
  if (order.customer_id !== customerId) throw errors.notFound(`Order with id: ${input.order_id} was not found`);
  const { shipping, stock_location_id } = await returnShippingFor(m, order, input.return_shipping.option_id);
  const location_id = input.location_id ?? stock_location_id;
  if (!location_id)
    throw errors.invalidData(
      `Shipping option ${shipping.shipping_option_id} names no stock location: give a location_id`,
    );
  const created = await engine.execute(createReturnWorkflow, {
    order_id: order.id,
    return: { items: input.items, location_id, shipping },
    actor: { actor_type: "customer", actor_id: customerId },
  });
  return m.orderReturn.retrieve(created.id);
}
