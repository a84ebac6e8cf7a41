import { errors, generateId } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import type {
  AddedItemDetails,
  AddedShippingDetails,
  DraftEditItemsAdd,
  DraftEditShippingUpdate,
  DraftOrderCreate,
  DraftOrderUpdate,
  Order,
  OrderActor,
  OrderChangeAction,
  OrderVersionChange,
} from "@kasse/modules/order";
import { nullIfMissing } from "./cart-result";
import { planChange } from "./order-change-plan";
import { NOTHING_PAID, withDraftPromotions } from "./draft-promotions";
import { pricedItems, pricedShipping, taxRate, type PricingTarget } from "./order-edits";

/** A record the body names: 400 (not 404) when it does not exist. */
async function named<T>(what: string, id: string, find: Promise<T>): Promise<T> {
  const found = await find.catch(nullIfMissing);
  if (!found) throw errors.invalidData(`${what} with id: ${id} was not found`);
  return found;
}

/** A line of a draft as the body gives it: a variant (priced unless `unit_price`), or a custom line (`title`, `unit_price`). */
type DraftLineInput = DraftEditItemsAdd["items"][number];

/**
 * A draft's lines in the order given: variants priced and taxed as an order edit's
 * (`pricedItems`), custom lines at their own title and price, taxed at the draft's shipping
 * address; 400 for an unknown variant or a custom line without a title or a price.
 */
async function draftLines(
  m: Modules,
  target: PricingTarget,
  items: DraftLineInput[],
): Promise<Array<{ details: AddedItemDetails; internal_note: string | null }>> {
  const variants = items.flatMap((i) =>
    i.variant_id ? [{ variant_id: i.variant_id, quantity: i.quantity, unit_price: i.unit_price }] : [],
  );
  const custom = items.filter((i) => !i.variant_id);
  if (custom.some((i) => !i.title || i.unit_price === undefined))
    throw errors.invalidData("A line without a variant_id needs a title and a unit_price");
  const [priced, inclusive, rate] = await Promise.all([
    variants.length ? pricedItems(m, target, variants) : [],
    custom.length ? m.pricing.taxInclusive(target.currency_code, target.region_id) : false,
    custom.length ? taxRate(m, target, {}) : 0,
  ]);
  let next = 0;
  return items.map((item) => {
    const note = item.internal_note ?? null;
    if (item.variant_id) return { details: priced[next++]!.details, internal_note: note };
    const details: AddedItemDetails = {
      variant_id: null,
      product_id: null,
      title: item.title!,
      subtitle: null,
      thumbnail: null,
      variant_title: null,
      variant_sku: null,
      product_title: item.title!,
      product_handle: null,
      requires_shipping: true,
      is_tax_inclusive: inclusive,
      quantity: item.quantity,
      unit_price: item.unit_price!,
      tax_rate: rate,
    };
    return { details, internal_note: note };
  });
}

/** A shipping method of a draft: the option at its price there, or at Medusa's `amount`, named `name` if given. */
async function draftMethod(
  m: Modules,
  target: PricingTarget,
  method: { shipping_option_id: string; name?: string; amount?: number },
): Promise<AddedShippingDetails> {
  const details = await pricedShipping(m, target, {
    shipping_option_id: method.shipping_option_id,
    custom_amount: method.amount,
  });
  return method.name ? { ...details, name: method.name } : details;
}

/** An action adding a line or method, as an edit's `stamp` writes it (an added line is named by its action). */
function stamp(body: Pick<OrderChangeAction, "action" | "details">): OrderChangeAction {
  const id = generateId("ordchact");
  const reference = body.action === "SHIPPING_ADD" ? "shipping_method" : "order_item";
  return {
    ...body,
    id,
    reference,
    reference_id: id,
    internal_note: null,
    created_at: new Date().toISOString(),
  } as OrderChangeAction;
}

/**
 * Creates a draft order (Medusa's `POST /admin/draft-orders`): for a customer (whose email it takes
 * unless one is given) or an email, in a region (its currency), with variants priced as an order
 * edit prices them (or at `unit_price`), custom lines (`title`, `unit_price`) and shipping methods,
 * taxed at the shipping address. Its lines and totals are what the order-change plan computes for
 * those lines added to an empty order, so a draft totals exactly as an edit would. The draft holds
 * no stock and no payment until it is converted. 400 and nothing written on any unknown reference.
 */
export async function createDraftOrder(m: Modules, input: DraftOrderCreate, actor: OrderActor): Promise<Order> {
  if (!input.email && !input.customer_id) throw errors.invalidData("A draft order needs an email or a customer_id");
  const [region, customer] = await Promise.all([
    named("Region", input.region_id, m.region.retrieve(input.region_id)),
    input.customer_id ? named("Customer", input.customer_id, m.customer.retrieve(input.customer_id)) : undefined,
    input.sales_channel_id
      ? named("Sales channel", input.sales_channel_id, m.salesChannel.retrieve(input.sales_channel_id))
      : undefined,
  ]);
  if (input.currency_code && input.currency_code.toLowerCase() !== region.currency_code)
    throw errors.invalidData(
      `Currency ${input.currency_code.toLowerCase()} is not the currency of region ${region.id}`,
    );
  const target: PricingTarget = {
    currency_code: region.currency_code,
    region_id: region.id,
    shipping_address: input.shipping_address ?? null,
  };
  const [lines, methods] = await Promise.all([
    draftLines(m, target, input.items ?? []),
    Promise.all((input.shipping_methods ?? []).map((s) => draftMethod(m, target, s))),
  ]);
  const actions = [
    ...lines.map((l) => stamp({ action: "ITEM_ADD", details: l.details })),
    ...methods.map((details) => stamp({ action: "SHIPPING_ADD", details })),
  ];
  const empty = {
    id: "",
    items: [],
    shipping_methods: [],
    item_subtotal: 0,
    item_tax_total: 0,
    item_discount_total: 0,
    item_total: 0,
    shipping_subtotal: 0,
    shipping_tax_total: 0,
    shipping_discount_total: 0,
    shipping_total: 0,
    subtotal: 0,
    discount_total: 0,
    tax_total: 0,
    total: 0,
  };
  const plan = planChange(empty, { id: "", updated_at: new Date(), actions }, NOTHING_PAID);
  return m.draftOrder.create(
    {
      customer_id: customer?.id ?? null,
      email: input.email ?? customer?.email ?? null,
      currency_code: region.currency_code,
      region_id: region.id,
      sales_channel_id: input.sales_channel_id ?? null,
      shipping_address: input.shipping_address ?? null,
      billing_address: input.billing_address ?? null,
      items: plan.application.added_lines.map(({ action_id: _a, ...line }) => line),
      shipping_methods: plan.application.added_methods.map(({ action_id: _a, ...method }) => method),
      totals: plan.totals,
      metadata: input.metadata ?? null,
    },
    actor,
  );
}

/** Changes a draft's email, addresses, metadata, customer or sales channel (which must exist: 400 otherwise). */
export async function updateDraftOrder(
  m: Modules,
  id: string,
  input: DraftOrderUpdate,
  actor: OrderActor,
): Promise<Order> {
  await Promise.all([
    input.customer_id ? named("Customer", input.customer_id, m.customer.retrieve(input.customer_id)) : undefined,
    input.sales_channel_id
      ? named("Sales channel", input.sales_channel_id, m.salesChannel.retrieve(input.sales_channel_id))
      : undefined,
  ]);
  return m.draftOrder.update(id, input, actor);
}

/** Adds lines to the active edit of draft `id`: variants or custom lines, as the draft's creation takes them. */
export async function addDraftEditItems(m: Modules, id: string, input: DraftEditItemsAdd): Promise<OrderVersionChange> {
  const edit = await activeDraftEdit(m, id);
  const draft = await m.draftOrder.retrieve(id);
  return m.orderEdit.addItems(edit.id, await draftLines(m, draft, input.items));
}

/**
 * Changes the price of a shipping method the draft's active edit added (Medusa's body names its
 * option: another option than the method's is refused; remove the method and add the other).
 */
export async function updateDraftEditShipping(
  m: Modules,
  id: string,
  actionId: string,
  input: DraftEditShippingUpdate,
): Promise<OrderVersionChange> {
  const edit = await activeDraftEdit(m, id);
  const action = edit.actions.find((a) => a.id === actionId && a.action === "SHIPPING_ADD");
  if (
    action?.action === "SHIPPING_ADD" &&
    input.shipping_option_id &&
    input.shipping_option_id !== action.details.shipping_option_id
  )
    throw errors.invalidData(
      `Shipping method ${actionId} is of option ${action.details.shipping_option_id}: remove it and add the other option`,
    );
  return m.orderEdit.updateAddedShipping(edit.id, actionId, {
    amount: input.custom_amount ?? undefined,
    internal_note: input.internal_note ?? undefined,
  });
}

/** The active edit of draft `id` (begun with `POST /admin/draft-orders/{id}/edit`); 400 when there is none. */
export async function activeDraftEdit(m: Modules, id: string): Promise<OrderVersionChange> {
  await m.draftOrder.retrieve(id);
  const edit = await m.orderEdit.activeFor(id);
  if (!edit || edit.change_type !== "edit") throw errors.invalidData(`Draft order ${id} has no active edit`);
  return edit;
}

/**
 * Confirms the active edit of draft `id` as its next version: the same plan the preview shows,
 * written by the order-edit service in one order-module transaction (a draft holds no stock and no
 * payment, so nothing else moves).
 */
export async function confirmDraftOrderEdit(m: Modules, id: string, actor: OrderActor): Promise<Order> {
  const edit = await activeDraftEdit(m, id);
  const draft = await m.draftOrder.retrieve(id);
  const plan = await withDraftPromotions(m, draft, edit, planChange(draft, edit, NOTHING_PAID));
  const { order } = await m.orderEdit.confirm(plan.application, actor);
  return order;
}
