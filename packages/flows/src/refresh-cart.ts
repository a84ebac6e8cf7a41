import type { Modules } from "@kasse/modules";
import { errors, generateId } from "@kasse/core";
import { groupBy } from "@kasse/db";
import {
  catalogMoved,
  computeTotals,
  type Adjustment,
  type CartLineItemRow,
  type CartState,
  type ComputedLine,
  type TaxLine,
} from "@kasse/modules/cart";
import type { CalculatedPrice } from "@kasse/modules/pricing";
import type { Region } from "@kasse/modules/region";
import { applicable, type RegionRates, type TaxTarget } from "@kasse/modules/tax";
import { nullIfMissing, type CartResult, type RemovedLine } from "./cart-result";

/** What a cart write asks the refresh to do beyond the usual. */
export interface RefreshOptions {
  /** Compute taxes even when the region has `automatic_taxes` off (`POST /store/carts/{id}/taxes`). */
  forceTaxes?: boolean;
  /** The promotion codes to price the cart with (default: the cart's). */
  codes?: string[];
  /** Codes the customer is adding now: each must apply, else 400 naming it. */
  requireCodes?: string[];
  /** The cart's region when the caller already loaded it (saves reading it again). */
  region?: Region;
  /** The shipping options for the cart's region, currency and address, when the caller already listed them. */
  shippingOptions?: Array<{ id: string; amount: number }>;
  /** Check every line is still for sale even when nothing moved (the cart changed sales channel). */
  recheck?: boolean;
}

/**
 * Recomputes everything a cart derives from other modules and stores it, inside the caller's
 * transaction: unit prices (customer groups, price lists, quantity tiers; a line whose variant has
 * no price in the cart's currency is a 400), shipping methods (dropped when their option no longer
 * applies to the region and currency, else re-priced), tax lines (the rate of the shipping
 * address's country and province, or an override rate naming the line's product or product type or
 * the method's shipping option, when the region computes taxes automatically or `forceTaxes`),
 * promotion adjustments (automatic ones and the cart's codes, via the promotion module), the
 * totals (`computeTotals`). Writes the cart module only; the result carries the cart's payment
 * collection as it is (`writeCart` then brings its amount to the new total).
 *
 * When a write to the catalog, price lists, promotions, shipping or taxes committed since the cart
 * was last computed (`catalogMoved`), or the cart changed sales channel (`recheck`), every line is checked to be still for sale first (its product
 * published, in the cart's sales channel, which is not disabled, and priced in its currency): a
 * line that is not is removed, and named in `removed` (no 400: the cart must stay usable). The
 * cart is then stamped with the version read with it and the moment a price list or campaign it saw
 * starts or ends (`priced_until`): while both hold, what it stores is what the store offers.
 */
export async function refreshCart(m: Modules, state: CartState, options: RefreshOptions = {}): Promise<CartResult> {
  const { cart } = state;
  const recheck = options.recheck || catalogMoved(state) ? state.items : [];
  const groupIds = cart.customer_id ? await m.customer.groupIdsOfCustomer(cart.customer_id) : [];
  // Variant and shipping prices follow one preference (the region's, else the currency's): read once for both.
  const inclusive =
    state.items.length || state.shipping_methods.length
      ? m.pricing.taxInclusive(cart.currency_code, cart.region_id)
      : Promise.resolve(false);
  // Independent reads, sent together (postgres.js pipelines them on the transaction's connection).
  const [region, priced, { methods, dropped }, rates, shippingInclusive, unsellable] = await Promise.all([
    options.region?.id === cart.region_id ? options.region : cart.region_id ? m.region.retrieve(cart.region_id) : null,
    inclusive.then((is_tax_inclusive) => priceItems(m, state, groupIds, is_tax_inclusive)),
    applicableMethods(m, state, options.shippingOptions),
    taxRatesFor(m, state),
    inclusive,
    notForSale(m, state, recheck),
  ]);
  const { prices, valid_until } = priced;
  const rechecked = new Set(recheck.map((i) => i.id));
  const removed: RemovedLine[] = [...unsellable];
  for (const item of state.items) {
    if (prices.has(item.id) || removed.some((r) => r.item.id === item.id)) continue;
    if (!rechecked.has(item.id))
      throw errors.invalidData(`Variant with id: ${item.variant_id} has no price in ${cart.currency_code}`);
    removed.push({ item, reason: `it has no price in ${cart.currency_code.toUpperCase()}` });
  }
  await Promise.all([
    m.cart.deleteShippingMethods(dropped),
    m.cart.deleteItems(
      cart.id,
      removed.map((r) => r.item.id),
    ),
  ]);
  const kept = removed.length ? state.items.filter((i) => !removed.some((r) => r.item.id === i.id)) : state.items;
  // Taxes follow the address when the region computes them automatically (or when asked); else each line keeps its tax lines.
  const taxed = options.forceTaxes || !region || region.automatic_taxes;
  const taxLines = (target: TaxTarget) => (taxed ? taxLinesOf(rates, target) : null);

  const items = kept.map((item) => {
    const price = prices.get(item.id)!;
    return {
      ...item,
      unit_price: price.calculated_amount,
      is_tax_inclusive: price.is_calculated_price_tax_inclusive,
      tax_lines: taxLines({ product_id: item.product_id, product_type_id: item.product_type_id }) ?? item.tax_lines,
    };
  });
  const shipping_methods = methods.map(({ method, amount }) => ({
    ...method,
    amount,
    is_tax_inclusive: shippingInclusive,
    tax_lines: taxLines({ shipping_option_id: method.shipping_option_id }) ?? method.tax_lines,
  }));

  const codes = options.codes ?? cart.promo_codes;
  const promotions = items.length
    ? await m.promotion.computeForCart(
        {
          currency_code: cart.currency_code,
          region_id: cart.region_id,
          customer_group_ids: groupIds,
          items: items.map((i) => ({
            id: i.id,
            quantity: i.quantity,
            unit_price: i.unit_price,
            product_id: i.product_id,
            product_collection_id: i.product_collection_id,
            product_category_ids: i.product_category_ids,
            product_tag_ids: i.product_tag_ids,
            is_discountable: i.is_discountable,
          })),
          shipping_methods: shipping_methods.map((s) => ({
            id: s.id,
            amount: s.amount,
            shipping_option_id: s.shipping_option_id,
          })),
        },
        codes,
        {},
      )
    : null;
  const appliedCodes = new Set(
    (promotions?.applied ?? []).map((a) => a.code?.toLowerCase()).filter((c): c is string => !!c),
  );
  for (const code of options.requireCodes ?? []) {
    if (!appliedCodes.has(code.toLowerCase()))
      throw errors.invalidData(`The promotion code ${code} is invalid or does not apply to the cart`);
  }
  const itemAdjustments = groupBy(promotions?.item_adjustments ?? [], (a) => a.item_id, { value: adjustment });
  const methodAdjustments = groupBy(promotions?.shipping_method_adjustments ?? [], (a) => a.shipping_method_id, {
    value: adjustment,
  });

  const totals = computeTotals({
    items: items.map((i) => ({
      unit_price: i.unit_price,
      quantity: i.quantity,
      is_tax_inclusive: i.is_tax_inclusive,
      tax_rates: i.tax_lines.map((t) => t.rate),
      discounts: (itemAdjustments.get(i.id) ?? []).map((a) => a.amount),
    })),
    shipping_methods: shipping_methods.map((s) => ({
      amount: s.amount,
      is_tax_inclusive: s.is_tax_inclusive,
      tax_rates: s.tax_lines.map((t) => t.rate),
      discounts: (methodAdjustments.get(s.id) ?? []).map((a) => a.amount),
    })),
  });
  /** A line or shipping method as `saveComputed` stores it: its price, taxes, adjustments and totals. */
  const computed = (
    line: { id: string; is_tax_inclusive: boolean; tax_lines: TaxLine[] },
    price: Pick<ComputedLine, "unit_price" | "amount">,
    adjustments: Map<string, Adjustment[]>,
    lineTotals: (typeof totals.items)[number],
  ): ComputedLine => ({
    id: line.id,
    ...price,
    is_tax_inclusive: line.is_tax_inclusive,
    tax_lines: line.tax_lines,
    adjustments: adjustments.get(line.id) ?? [],
    ...lineTotals,
  });
  const computedItems = items.map((i, n) =>
    computed(i, { unit_price: i.unit_price }, itemAdjustments, totals.items[n]!),
  );
  const computedMethods = shipping_methods.map((s, n) =>
    computed(s, { amount: s.amount }, methodAdjustments, totals.shipping_methods[n]!),
  );
  // Keep the codes that still discount something (as Medusa drops promotions that no longer apply).
  const promo_codes = codes.filter((c) => appliedCodes.has(c.toLowerCase()));
  const stamp = {
    // A state not read with the version (a new cart's) keeps the stamp it has.
    priced_version: state.cart_version ?? cart.priced_version,
    priced_until: earliest(valid_until, promotions?.valid_until ?? null),
  };
  const [now, found] = await Promise.all([
    m.cart.saveComputed(cart.id, {
      items: computedItems,
      shipping_methods: computedMethods,
      totals: totals.cart,
      promo_codes,
      ...stamp,
    }),
    m.payment.collectionForCart(cart.id),
  ]);
  // Read, not written: a collection behind the new total is synced after the cart's commit (`writeCart`).
  const payment_collection = found ?? null;

  return {
    cart: { ...cart, ...totals.cart, promo_codes, ...stamp, updated_at: now },
    items: items.map((i, n) => ({ ...i, ...computedItems[n]!, updated_at: now })),
    shipping_methods: shipping_methods.map((s, n) => ({ ...s, ...computedMethods[n]!, updated_at: now })),
    ...(state.cart_version === undefined ? {} : { cart_version: state.cart_version }),
    region,
    payment_collection,
    removed,
    promotion_skips: promotions?.skipped ?? [],
  };
}

/** The earlier of two moments (null: never). */
const earliest = (a: Date | null, b: Date | null): Date | null => (a && b ? (a < b ? a : b) : (a ?? b));

/**
 * The lines of `lines` that can no longer be sold in the cart, each with why: the variant or its
 * product deleted, the product not published, not in the cart's sales channel, or that channel
 * disabled or gone. Two reads, sent together; none for no lines.
 */
async function notForSale(m: Modules, state: CartState, lines: CartLineItemRow[]): Promise<RemovedLine[]> {
  if (lines.length === 0) return [];
  const channelId = state.cart.sales_channel_id;
  const [channel, statuses] = await Promise.all([
    channelId ? m.salesChannel.retrieve(channelId).catch(nullIfMissing) : null,
    channelId ? m.product.saleStatus([...new Set(lines.map((i) => i.variant_id))], channelId) : [],
  ]);
  const byVariant = new Map(statuses.map((s) => [s.id, s]));
  const out: RemovedLine[] = [];
  for (const item of lines) {
    const status = byVariant.get(item.variant_id);
    const reason = !channel
      ? "the cart's sales channel no longer exists"
      : channel.is_disabled
        ? "the cart's sales channel is disabled"
        : !status || status.product_status === null
          ? "it was removed from the store"
          : status.product_status !== "published"
            ? "its product is not published"
            : !status.in_channel
              ? "it is not sold in the cart's sales channel"
              : null;
    if (reason) out.push({ item, reason });
  }
  return out;
}

/**
 * Each line's calculated price (a line whose variant has none in the cart's currency is absent),
 * one pricing call per distinct quantity (quantity tiers), and until when they hold.
 */
async function priceItems(
  m: Modules,
  state: CartState,
  customer_group_ids: string[],
  is_tax_inclusive: boolean,
): Promise<{ prices: Map<string, CalculatedPrice>; valid_until: Date | null }> {
  const byQuantity = groupBy(state.items, (i) => i.quantity);
  const out = new Map<string, CalculatedPrice>();
  let valid_until: Date | null = null;
  const context = {
    currency_code: state.cart.currency_code,
    region_id: state.cart.region_id ?? undefined,
    customer_group_ids,
    is_tax_inclusive,
  };
  await Promise.all(
    [...byQuantity].map(async ([quantity, items]) => {
      const priced = await m.pricing.priceVariants([...new Set(items.map((i) => i.variant_id))], {
        ...context,
        quantity,
      });
      valid_until = earliest(valid_until, priced.valid_until);
      for (const item of items) {
        const price = priced.prices.get(item.variant_id);
        if (price) out.set(item.id, price);
      }
    }),
  );
  return { prices: out, valid_until };
}

/** The cart's methods whose option still applies, with the option's current amount; the others' ids. */
async function applicableMethods(m: Modules, state: CartState, listed?: Array<{ id: string; amount: number }>) {
  if (state.shipping_methods.length === 0) return { methods: [], dropped: [] as string[] };
  const options =
    listed ??
    (await m.fulfillment.optionsForContext({
      region_id: state.cart.region_id,
      currency_code: state.cart.currency_code,
      address: state.cart.shipping_address,
    }));
  const amounts = new Map(options.map((o) => [o.id, o.amount]));
  const methods = state.shipping_methods
    .filter((s) => amounts.has(s.shipping_option_id))
    .map((method) => ({ method, amount: amounts.get(method.shipping_option_id)! }));
  return {
    methods,
    dropped: state.shipping_methods.filter((s) => !amounts.has(s.shipping_option_id)).map((s) => s.id),
  };
}

/** The tax rates covering the shipping address: none without an address or a tax region for its country. */
async function taxRatesFor(m: Modules, state: CartState): Promise<RegionRates[]> {
  const address = state.cart.shipping_address;
  if (!address?.country_code) return [];
  return m.tax.ratesFor(address.country_code, address.province);
}

/** A line's or shipping method's tax lines: an override rate naming it, else the address's default rate. */
function taxLinesOf(rates: RegionRates[], target: TaxTarget): TaxLine[] {
  return applicable(rates, target).map((r) => ({ rate: r.rate, code: r.code, name: r.name, tax_rate_id: r.id }));
}

function adjustment(a: { promotion_id: string; code: string | null; amount: number }): Adjustment {
  return { id: generateId("caadj"), promotion_id: a.promotion_id, code: a.code, amount: a.amount };
}
