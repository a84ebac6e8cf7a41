import type { BrowserContext, Locator } from "playwright-core";
import { COUNTRY } from "./config";
import type { KasseApi } from "./kasse";
import { normalizeText } from "./money";
import type { JourneyApi, StepContext } from "./runner";

// What Kasse computed (read at the root, in minor units) and the storefront actions the journeys share.

export interface KasseVariant {
  id: string;
  title: string;
  options: Array<{ id: string; value: string; option?: { id: string; title: string } }>;
  calculated_price?: { calculated_amount: number; currency_code: string } | null;
}
export interface KasseProduct {
  id: string;
  title: string;
  handle: string;
  variants: KasseVariant[];
}
export interface KasseRegion {
  id: string;
  currency_code: string;
  countries: Array<{ iso_2: string }>;
}
interface KasseLine {
  id: string;
  title?: string;
  product_title?: string | null;
  variant_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
}
export interface KasseCart {
  id: string;
  currency_code: string;
  email: string | null;
  customer_id: string | null;
  items: KasseLine[];
  promotions: Array<{ code: string | null }>;
  shipping_address: Record<string, unknown> | null;
  shipping_methods: Array<{ shipping_option_id: string; amount: number }>;
  item_subtotal: number;
  shipping_subtotal: number;
  discount_total: number;
  tax_total: number;
  total: number;
}
export interface KasseOrder {
  id: string;
  item_subtotal?: number;
  shipping_subtotal?: number;
  discount_subtotal?: number;
  shipping_methods?: Array<{ name: string; total?: number; amount: number }>;
  payment_collections?: Array<{ payments?: Array<{ amount: number }> }>;
  display_id: number;
  email: string;
  customer_id: string | null;
  currency_code: string;
  items: KasseLine[];
  subtotal: number;
  shipping_total: number;
  discount_total: number;
  tax_total: number;
  total: number;
}

/** The region serving the storefront's country. */
export async function region(kasse: KasseApi, country = COUNTRY): Promise<KasseRegion> {
  const { regions } = await kasse.store<{ regions: KasseRegion[] }>("GET", "/store/regions?limit=100");
  const found = regions.find((r) => r.countries.some((c) => c.iso_2 === country));
  if (!found) throw new Error(`Kasse has no region for country ${country}`);
  return found;
}

/** Every published product with prices in the region, as Kasse lists them. */
export async function products(kasse: KasseApi, regionId: string, filter = ""): Promise<KasseProduct[]> {
  const { products: list } = await kasse.store<{ products: KasseProduct[] }>(
    "GET",
    `/store/products?limit=100&region_id=${regionId}${filter}`,
  );
  return list;
}

export async function productByHandle(kasse: KasseApi, regionId: string, handle: string): Promise<KasseProduct> {
  const [found] = await products(kasse, regionId, `&handle=${encodeURIComponent(handle)}`);
  if (!found) throw new Error(`Kasse has no product with handle ${handle}`);
  return found;
}

/** The lowest calculated price of a product's variants (what a product card shows). */
export function cheapest(product: KasseProduct): number {
  const amounts = product.variants
    .map((v) => v.calculated_price?.calculated_amount)
    .filter((a): a is number => typeof a === "number");
  if (!amounts.length) throw new Error(`${product.title} has no price in the region`);
  return Math.min(...amounts);
}

export function variantWith(product: KasseProduct, value: string): KasseVariant {
  const variant = product.variants.find((v) => v.options.some((o) => o.value === value));
  if (!variant) throw new Error(`${product.title} has no variant ${value}`);
  return variant;
}

/** The storefront's cart id (its `_medusa_cart_id` cookie). */
async function cartIdOf(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === "_medusa_cart_id");
  if (!cookie?.value) throw new Error("the storefront set no cart cookie (_medusa_cart_id)");
  return cookie.value;
}

/** The signed-in shopper's token (the storefront's `_medusa_jwt` cookie), if any. */
async function shopperToken(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === "_medusa_jwt")?.value || undefined;
}

/** The cart as Kasse computed it, read with the shopper's own credentials (a customer's cart is theirs alone). */
async function kasseCart(kasse: KasseApi, id: string, context?: BrowserContext): Promise<KasseCart> {
  const jwt = context ? await shopperToken(context) : undefined;
  return (await kasse.store<{ cart: KasseCart }>("GET", `/store/carts/${id}`, undefined, jwt)).cart;
}

/** The cart behind the storefront's cart cookie. */
export async function shopperCart(context: BrowserContext, kasse: KasseApi): Promise<KasseCart> {
  return kasseCart(kasse, await cartIdOf(context), context);
}

export async function kasseOrder(kasse: KasseApi, id: string): Promise<KasseOrder> {
  return (await kasse.admin<{ order: KasseOrder }>("GET", `/admin/orders/${id}`)).order;
}

/**
 * On a product page: picks `value` of the product's option (when it has several variants), checks
 * that the storefront selected Kasse's variant and shows its price, and adds one to the cart.
 */
export async function chooseAndAdd(
  s: StepContext,
  product: KasseProduct,
  value: string,
  itemsAfter: number,
): Promise<void> {
  const { page } = s;
  const variant = variantWith(product, value);
  await choose(s, product, value);
  const price = variant.calculated_price;
  if (price)
    await s.expectAmount(
      `product page price of ${product.title} ${value}`,
      page.getByTestId("product-price").first(),
      price.calculated_amount,
      price.currency_code,
    );
  const add = page.getByTestId("product-container").getByTestId("add-product-button");
  if (!(await add.isEnabled()))
    throw new Error(
      `the add-to-cart button of ${product.title} ${value} is disabled and says "${await add.innerText()}"`,
    );
  await s.action(() => s.press(add));
  const cart = await shopperCart(s.context, s.kasse);
  const count = cart.items.reduce((n, i) => n + i.quantity, 0);
  if (!cart.items.some((i) => i.variant_id === variant.id) || count !== itemsAfter) {
    throw new Error(
      `after "Add to cart" Kasse's cart holds ${count} item(s) (${cart.items.map((i) => `${i.quantity}× ${i.variant_id}`).join(", ")}), expected ${itemsAfter} with ${variant.id}`,
    );
  }
  await expectNavCount(s, itemsAfter);
}

/** Renders the current page afresh and checks the nav's cart count. */
export async function expectNavCount(s: StepContext, n: number): Promise<void> {
  const url = new URL(s.page.url());
  // The nav renders a "Cart (0)" placeholder while the cart streams in; the last link is the streamed one.
  const link = s.page.getByTestId("nav-cart-link").last();
  await s.visit(url.pathname + url.search, link);
  const shown = (await link.innerText()).trim();
  if (shown !== `Cart (${n})`) s.soft(`the nav says "${shown}", Kasse's cart holds ${n} item(s)`);
}

/** Clicks an option value and waits until the storefront selected Kasse's variant (it writes `?v_id=`). */
export async function choose(s: StepContext, product: KasseProduct, value: string): Promise<void> {
  const { page } = s;
  const variant = variantWith(product, value);
  if (product.variants.length > 1)
    await s.press(page.getByTestId("product-options").first().getByRole("button", { name: value, exact: true }));
  await page
    .waitForURL((url) => url.searchParams.get("v_id") === variant.id)
    .catch(async () => {
      const add = page.getByTestId("add-product-button");
      throw new Error(
        `choosing "${value}" of ${product.title} selected no variant (expected ?v_id=${variant.id}); the add button says "${await add.innerText()}"`,
      );
    });
  // The URL changes at once; the page's render for it arrives later.
  await s.quiet();
}

/** Checks a cart's summary (cart page or checkout) against the cart Kasse computed. */
export async function expectCartTotals(s: StepContext, scope: Locator, cart: KasseCart): Promise<void> {
  const c = cart.currency_code;
  await s.expectAmount("cart subtotal", scope.getByTestId("cart-subtotal"), cart.item_subtotal, c);
  await s.expectAmount("cart shipping", scope.getByTestId("cart-shipping"), cart.shipping_subtotal, c);
  await s.expectAmount("cart taxes", scope.getByTestId("cart-taxes"), cart.tax_total, c);
  await s.expectAmount("cart total", scope.getByTestId("cart-total"), cart.total, c);
  const discount = scope.getByTestId("cart-discount");
  if (cart.discount_total > 0) {
    if ((await discount.count()) === 0)
      s.soft(`amount: the cart shows no discount row, Kasse's cart has discount_total ${cart.discount_total} ${c}`);
    else await s.expectAmount("cart discount", discount, cart.discount_total, c);
  } else if ((await discount.count()) > 0)
    s.soft(`amount: the cart shows a discount row "${await discount.innerText()}", Kasse's cart has no discount`);
}

/** Checks each cart line's unit price and total on the cart page against Kasse's lines. */
export async function expectCartLines(s: StepContext, cart: KasseCart): Promise<void> {
  const rows = s.page.getByTestId("cart-container").getByTestId("product-row");
  if ((await rows.count()) !== cart.items.length)
    s.soft(`the cart page lists ${await rows.count()} lines, Kasse's cart has ${cart.items.length}`);
  for (const item of cart.items) {
    const title = item.product_title ?? item.title ?? "";
    const row = rows.filter({ has: s.page.getByTestId("product-title").getByText(title, { exact: true }) }).first();
    if ((await row.count()) === 0) {
      s.soft(`the cart page has no line for ${title}`);
      continue;
    }
    await s.expectAmount(`line total of ${title}`, row.getByTestId("product-price"), item.total, cart.currency_code);
    if (item.total % item.quantity === 0)
      await s.expectAmount(
        `unit price of ${title}`,
        row.getByTestId("product-unit-price"),
        item.total / item.quantity,
        cart.currency_code,
      );
  }
}

export interface Address {
  first_name: string;
  last_name: string;
  address_1: string;
  city: string;
  postal_code: string;
  province: string;
  phone: string;
}

export const ADDRESS: Address = {
  first_name: "Ada",
  last_name: "Shopper",
  address_1: "1 Market Street",
  city: "San Francisco",
  postal_code: "94105",
  province: "CA",
  phone: "5550100",
};

/**
 * The checkout from the address step to the confirmation page: `fill` enters email and address
 * (a guest; a customer with a saved address gets it preselected), then delivery, manual payment,
 * place order. Returns the order id from the confirmation page's URL.
 */
export async function checkout(
  j: JourneyApi,
  fillAddresses: (s: StepContext) => Promise<void>,
  state: { orderId?: string },
): Promise<void> {
  const stepFn = j.step;
  await stepFn("checkout: email and addresses", async (t) => {
    await t.visit("/us/checkout?step=address", t.page.getByTestId("submit-address-button"));
    await fillAddresses(t);
    await t.press(t.page.getByTestId("submit-address-button"));
    await t.page.waitForURL(/step=delivery/).catch(async () => {
      throw new Error(
        `the address step did not move on to delivery: ${await t.page
          .getByTestId("address-error-message")
          .innerText()
          .catch(() => "(no error shown)")}`,
      );
    });
    const cart = await shopperCart(t.context, t.kasse);
    if (!cart.email || !cart.shipping_address)
      t.soft(
        `Kasse's cart has email ${cart.email} and shipping address ${JSON.stringify(cart.shipping_address)} after the address step`,
      );
  });
  await stepFn("checkout: shipping option", async (t) => {
    const cart = await shopperCart(t.context, t.kasse);
    const { shipping_options } = await t.kasse.store<{
      shipping_options: Array<{ id: string; name: string; amount: number }>;
    }>("GET", `/store/shipping-options?cart_id=${cart.id}`, undefined, await shopperToken(t.context));
    const option = shipping_options[0];
    if (!option) throw new Error("Kasse offers no shipping option for the cart");
    const radio = t.page.getByTestId("delivery-option-radio").filter({ hasText: option.name }).first();
    await radio.waitFor();
    await t.expectAmount(`price of shipping option ${option.name}`, radio, option.amount, cart.currency_code);
    await t.press(radio);
    const after = t.page.getByTestId("submit-delivery-option-button");
    await t.press(after);
    await t.page.waitForURL(/step=payment/).catch(async () => {
      throw new Error(
        `the delivery step did not move on to payment: ${await t.page
          .getByTestId("delivery-option-error-message")
          .innerText()
          .catch(() => "(no error shown)")}`,
      );
    });
    const updated = await kasseCart(t.kasse, cart.id, t.context);
    if (!updated.shipping_methods.some((m) => m.shipping_option_id === option.id))
      t.soft(`Kasse's cart has no shipping method of option ${option.id} after the delivery step`);
  });
  await stepFn("checkout: manual payment", async (t) => {
    await t.press(t.page.getByText("Manual Payment", { exact: false }).first());
    await t.press(t.page.getByTestId("submit-payment-button"));
    await t.page.waitForURL(/step=review/).catch(async () => {
      throw new Error(
        `the payment step did not move on to review: ${await t.page
          .getByTestId("payment-method-error-message")
          .innerText()
          .catch(() => "(no error shown)")}`,
      );
    });
    const cart = await shopperCart(t.context, t.kasse);
    await expectCartTotals(t, t.page.getByTestId("checkout-container").or(t.page.locator("body")).first(), cart);
  });
  await stepFn("checkout: place order", async (t) => {
    await t.press(t.page.getByTestId("submit-order-button"));
    await t.page.waitForURL(/\/order\/[^/]+\/confirmed/).catch(async () => {
      throw new Error(
        `placing the order did not reach the confirmation page: ${await t.page
          .getByTestId("manual-payment-error-message")
          .innerText()
          .catch(() => "(no error shown)")}`,
      );
    });
    await t.settle(t.page.getByTestId("order-complete-container"));
    state.orderId = /\/order\/([^/]+)\/confirmed/.exec(t.page.url())![1];
  });
  await stepFn("confirmation page", async (t) => {
    await expectOrderPage(t, await kasseOrder(t.kasse, state.orderId!));
  });
}

/**
 * Checks an order page against the order Kasse stored. The confirmation page shows the order
 * through the cart's totals block (item subtotal, shipping subtotal, discount subtotal), the
 * account's detail page through its order summary (subtotal, shipping total, discount total).
 */
export async function expectOrderPage(s: StepContext, order: KasseOrder): Promise<void> {
  const { page } = s;
  const c = order.currency_code;
  const displayId = page.getByTestId("order-id");
  if ((await displayId.count()) && (await displayId.innerText()).trim() !== String(order.display_id))
    s.soft(`the page shows order number "${await displayId.innerText()}", Kasse's is ${order.display_id}`);
  if ((await page.getByTestId("cart-total").count()) > 0) {
    const totals = page.locator("body");
    await s.expectAmount(
      "order item subtotal",
      totals.getByTestId("cart-subtotal"),
      order.item_subtotal ?? order.subtotal,
      c,
    );
    await s.expectAmount(
      "order shipping",
      totals.getByTestId("cart-shipping"),
      order.shipping_subtotal ?? order.shipping_total,
      c,
    );
    await s.expectAmount("order taxes", totals.getByTestId("cart-taxes"), order.tax_total, c);
    await s.expectAmount("order total", totals.getByTestId("cart-total"), order.total, c);
    if (order.discount_total > 0 && (await totals.getByTestId("cart-discount").count()) === 0)
      s.soft(
        `amount: the order page shows no discount row, Kasse's order has discount_total ${order.discount_total} ${c}`,
      );
  } else {
    const summary = page.locator("div", { has: page.getByRole("heading", { name: "Order Summary" }) }).last();
    const row = (label: string) =>
      summary
        .locator("div.flex", { has: page.locator(`span:text-is("${label}")`) })
        .last()
        .locator("span")
        .last();
    // OrderSummary's getAmount renders nothing for a zero amount (`if (!amount) return`): an empty cell shows 0.
    const expectRow = async (what: string, label: string, minor: number) => {
      if (minor === 0) {
        const text = (await row(label).innerText()).trim();
        if (text !== "")
          s.soft(`amount: ${what} shows "${text}", Kasse computed 0 ${c} (the storefront leaves a zero empty)`);
      } else await s.expectAmount(what, row(label), minor, c);
    };
    await expectRow("order subtotal", "Subtotal", order.subtotal);
    await expectRow("order shipping", "Shipping", order.shipping_total);
    await expectRow("order taxes", "Taxes", order.tax_total);
    await expectRow("order total", "Total", order.total);
    if (order.discount_total > 0) await s.expectAmount("order discount", row("Discount"), order.discount_total, c);
  }
  const method = order.shipping_methods?.[0];
  const methodSummary = page.getByTestId("shipping-method-summary");
  if (method && (await methodSummary.count()))
    await s.expectAmount(`shipping method ${method.name}`, methodSummary.first(), method.total ?? method.amount, c);
  const payment = order.payment_collections?.[0]?.payments?.[0];
  const paymentAmount = page.getByTestId("payment-amount");
  if (payment && (await paymentAmount.count()))
    await s.expectAmount("payment amount", paymentAmount.first(), payment.amount, c);
  const rows = page.getByTestId("products-table").getByTestId("product-row");
  for (const item of order.items) {
    const title = item.product_title ?? item.title ?? "";
    const line = rows.filter({ hasText: title }).first();
    if ((await line.count()) === 0) {
      s.soft(`the order page has no line for ${title}`);
      continue;
    }
    await s.expectAmount(`order line total of ${title}`, line.getByTestId("product-price").first(), item.total, c);
    const variant = line.getByTestId("product-variant");
    if ((await variant.count()) && !/Variant:\s*\S/.test(await variant.first().innerText()))
      s.soft(
        `the order line of ${title} shows "${normalizeText(await variant.first().innerText())}" without its variant (Kasse's line is variant ${item.variant_id})`,
      );
  }
}

/**
 * Places an order straight through Kasse's API (root): the data the order-transfer and order-edit
 * journeys start from, independent of whether the storefront's checkout works. A guest's, or with
 * a customer's `token` that customer's.
 */
export async function placeOrderViaApi(
  kasse: KasseApi,
  email: string,
  regionId: string,
  variantId: string,
  token?: string,
): Promise<KasseOrder> {
  const address = { ...ADDRESS, country_code: COUNTRY };
  const store = <T>(method: string, path: string, body?: unknown) => kasse.store<T>(method, path, body, token);
  const { cart } = await store<{ cart: KasseCart }>("POST", "/store/carts", {
    region_id: regionId,
    email,
    shipping_address: address,
    billing_address: address,
  });
  await store("POST", `/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 1 });
  const { shipping_options } = await store<{ shipping_options: Array<{ id: string }> }>(
    "GET",
    `/store/shipping-options?cart_id=${cart.id}`,
  );
  await store("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0]!.id });
  const { payment_collection } = await store<{ payment_collection: { id: string } }>(
    "POST",
    "/store/payment-collections",
    { cart_id: cart.id },
  );
  await store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: "pp_system_default",
  });
  const done = await store<{ type: string; order?: KasseOrder; error?: unknown }>(
    "POST",
    `/store/carts/${cart.id}/complete`,
  );
  if (done.type !== "order" || !done.order)
    throw new Error(`completing the setup cart gave ${JSON.stringify(done).slice(0, 300)}`);
  return done.order;
}
