import { errors, generateId } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import type {
  AddedItemDetails,
  DraftOrderCreate,
  DraftOrderUpdate,
  Order,
  OrderActor,
  OrderChangeAction,
  OrderVersionChange,
} from "@kasse/modules/order";
import { nullIfMissing } from "./cart-result";
import { planChange } from "./order-change-plan";
import { pricedItems, pricedShipping, taxRate, type PricingTarget } from "./order-edits";

/** A record the body names: 400 (not 404) when it does not exist. */
async function named<T>(what: string, id: string, find: Promise<T>): Promise<T> {
  const found = await find.catch(nullIfMissing);
  if (!found) throw errors.invalidData(`${what} with id: ${id} was not found`);
  return found;
}

/** A custom line of a draft (no variant): its title and price as given, taxed at the draft's shipping address. */
async function customItem(
  m: Modules,
  target: PricingTarget,
  item: { title: string; quantity: number; unit_price: number },
): Promise<AddedItemDetails> {
  return {
    variant_id: null,
    product_id: null,
    title: item.title,
    subtitle: null,
    thumbnail: null,
    variant_title: null,
    variant_sku: null,
    product_title: item.title,
    product_handle: null,
    requires_shipping: true,
    is_tax_inclusive: await m.pricing.taxInclusive(target.currency_code, target.region_id),
    quantity: item.quantity,
    unit_price: item.unit_price,
    tax_rate: await taxRate(m, target, {}),
  };
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
  const target: PricingTarget = {
    currency_code: region.currency_code,
    region_id: region.id,
    shipping_address: input.shipping_address ?? null,
  };
  const items = input.items ?? [];
  const variantLines = items.flatMap((i) =>
    i.variant_id ? [{ variant_id: i.variant_id, quantity: i.quantity, unit_price: i.unit_price }] : [],
  );
  const customLines = items.filter((i) => !i.variant_id);
  for (const line of customLines)
    if (!line.title || line.unit_price === undefined)
      throw errors.invalidData("A line without a variant_id needs a title and a unit_price");
  const [priced, custom, methods] = await Promise.all([
    variantLines.length ? pricedItems(m, target, variantLines) : [],
    Promise.all(customLines.map((i) => customItem(m, target, { ...i, title: i.title!, unit_price: i.unit_price! }))),
    Promise.all((input.shipping_methods ?? []).map((s) => pricedShipping(m, target, s))),
  ]);
  const actions = [
    ...priced.map((p) => stamp({ action: "ITEM_ADD", details: p.details })),
    ...custom.map((details) => stamp({ action: "ITEM_ADD", details })),
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
  const plan = planChange(
    empty,
    { id: "", updated_at: new Date(), actions },
    { captured: 0, refunded: 0, requested: 0 },
  );
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

/** Changes a draft's email, addresses, metadata or customer (which must exist: 400 otherwise). */
export async function updateDraftOrder(
  m: Modules,
  id: string,
  input: DraftOrderUpdate,
  actor: OrderActor,
): Promise<Order> {
  if (input.customer_id) await named("Customer", input.customer_id, m.customer.retrieve(input.customer_id));
  return m.draftOrder.update(id, input, actor);
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
  const plan = planChange(draft, edit, { captured: 0, refunded: 0, requested: 0 });
  const { order } = await m.orderEdit.confirm(plan.application, actor);
  return order;
}
