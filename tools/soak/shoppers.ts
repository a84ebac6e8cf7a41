import type { Answer, Client } from "./client";
import { pick, weighted } from "./random";

/** What the store looks like to the users (read from the server once it runs). */
export interface Shop {
  storeHeaders: Record<string, string>;
  regionId: string;
  shippingOptionId: string;
  /** Stocked plenty. */
  variantIds: string[];
  /** A few units each: checkouts race for them. */
  scarceVariantIds: string[];
  promoCode: string;
}

/** The kinds of checkout a user makes, and how often (weights). */
const CHECKOUTS = { plain: 30, double_submit: 8, promotion: 14, decline: 8, hang: 2, flaky: 6, scarce: 16 } as const;
type CheckoutKind = keyof typeof CHECKOUTS;

/** One checkout the soak started: what it was, the keys its completes used, and what the client was told. */
export interface StartedCheckout {
  cartId: string;
  kind: CheckoutKind;
  /** Units of each variant in the cart. */
  lines: Record<string, number>;
  keys: string[];
  /** The order the client was told of (every answer naming one must name the same), or null. */
  orderId: string | null;
  /** The error types the completes answered (a decline, a timeout, insufficient inventory…). */
  errors: string[];
  /** Completes answered as the first one (an Idempotency-Key replay, or a completed cart's order). */
  repeats: number;
  /** An answer named a different order than an earlier one for the same cart. */
  conflictingOrders: string[];
}

/** The store side's figures. */
interface ShopperFigures {
  browses: number;
  checkouts: number;
  orders: number;
  declines: number;
  timeouts: number;
  oversellRefused: number;
  budgetRefused: number;
  /** Other answers of a complete, by error type and message. */
  otherFailures: Record<string, number>;
  /** Setup requests (cart, line, address…) that did not answer 200, by answer: the checkout was dropped. */
  setupFailures: Record<string, number>;
}

const ADDRESS = {
  first_name: "Soak",
  last_name: "Tester",
  address_1: "1 Load Street",
  city: "New York",
  postal_code: "10001",
  country_code: "us",
};

/** The pp_test session data of each kind: `hang` never answers (the checkout times out after three 5 s attempts). */
function sessionData(kind: CheckoutKind): Record<string, unknown> {
  if (kind === "decline") return { behavior: "decline" };
  if (kind === "hang") return { behavior: "hang" };
  if (kind === "flaky") return { behavior: "flaky", fail_times: 2 };
  return { behavior: "authorize" };
}

/** The store users: browsing and checkouts of every kind, recorded for the checks afterwards. */
export function createShoppers(client: Client, shop: Shop) {
  const figures: ShopperFigures = {
    browses: 0,
    checkouts: 0,
    orders: 0,
    declines: 0,
    timeouts: 0,
    oversellRefused: 0,
    budgetRefused: 0,
    otherFailures: {},
    setupFailures: {},
  };
  const other = (why: string) => (figures.otherFailures[why] = (figures.otherFailures[why] ?? 0) + 1);
  const started: StartedCheckout[] = [];
  const placed: string[] = [];
  const headers = shop.storeHeaders;

  async function browse(): Promise<void> {
    const page = await client.request(
      "GET",
      `/store/products?limit=15&region_id=${shop.regionId}&offset=${Math.floor(Math.random() * 3) * 5}`,
      { headers },
    );
    figures.browses++;
    const product = page?.body?.products?.[0];
    if (product) await client.request("GET", `/store/products/${product.id}?region_id=${shop.regionId}`, { headers });
  }

  /** A setup request that must answer 200; null drops the checkout. */
  async function step(method: string, path: string, body: unknown): Promise<Answer | null> {
    const answer = await client.request(method, path, { headers, body });
    // Asking for more than is left is refused when the line is added, before checkout.
    if (answer?.status === 400 && /insufficient inventory/i.test(String(answer.body?.message))) {
      figures.oversellRefused++;
      return null;
    }
    if (answer?.status !== 200) {
      const why = answer
        ? `${answer.status} ${answer.body?.type ?? ""}: ${String(answer.body?.message ?? "").slice(0, 60)}`
        : "no answer";
      figures.setupFailures[why] = (figures.setupFailures[why] ?? 0) + 1;
      return null;
    }
    return answer;
  }

  /** Completes under the record's keys; notes what the answer says. */
  async function complete(record: StartedCheckout, key?: string): Promise<Answer | null> {
    const answer = await client.request(
      "POST",
      `/store/carts/${record.cartId}/complete`,
      { headers, timeoutMs: 60_000, key },
      (k) => record.keys.push(k),
    );
    const body = answer?.body;
    if (answer?.status === 200 && body?.type === "order") {
      if (record.orderId && record.orderId !== body.order.id) record.conflictingOrders.push(body.order.id);
      if (record.orderId || answer.replayed) record.repeats++;
      record.orderId ??= body.order.id;
    } else if (answer?.status === 200 && body?.type === "cart") {
      record.errors.push(body.error.type);
      const message = String(body.error.message);
      if (body.error.type === "payment_authorization_error") figures.declines++;
      else if (body.error.type === "timeout") figures.timeouts++;
      else if (/insufficient inventory/i.test(message)) figures.oversellRefused++;
      else if (/budget/i.test(message)) figures.budgetRefused++;
      else other(`${body.error.type}: ${message.slice(0, 80)}`);
    } else if (answer) {
      record.errors.push(`http_${answer.status}`);
      other(`HTTP ${answer.status} ${answer.body?.type ?? ""}: ${String(answer.body?.message ?? "").slice(0, 80)}`);
    } else other("no answer (the client gave up)");
    return answer;
  }

  async function checkout(): Promise<void> {
    const kind = weighted(CHECKOUTS);
    const variant = kind === "scarce" ? pick(shop.scarceVariantIds) : pick(shop.variantIds);
    const quantity = kind === "scarce" ? 1 + Math.floor(Math.random() * 2) : 1 + Math.floor(Math.random() * 3);
    const cart = await step("POST", "/store/carts", { region_id: shop.regionId });
    if (!cart) return;
    const cartId: string = cart.body.cart.id;
    if (!(await step("POST", `/store/carts/${cartId}/line-items`, { variant_id: variant, quantity }))) return;
    if (
      !(await step("POST", `/store/carts/${cartId}`, {
        email: `soak-${cartId.slice(-8)}@example.com`,
        shipping_address: ADDRESS,
        billing_address: ADDRESS,
      }))
    )
      return;
    if (!(await step("POST", `/store/carts/${cartId}/shipping-methods`, { option_id: shop.shippingOptionId }))) return;
    if (kind === "promotion") {
      const applied = await client.request("POST", `/store/carts/${cartId}/promotions`, {
        headers,
        body: { promo_codes: [shop.promoCode] },
      });
      // A campaign whose budget is used up no longer applies: the shopper is told at once, before checkout.
      if (applied?.status === 400 && /promotion code/i.test(String(applied.body?.message))) figures.budgetRefused++;
      if (applied?.status !== 200) return;
    }
    const collection = await step("POST", "/store/payment-collections", { cart_id: cartId });
    if (!collection) return;
    const collectionId: string = collection.body.payment_collection.id;
    if (
      !(await step("POST", `/store/payment-collections/${collectionId}/payment-sessions`, {
        provider_id: "pp_test",
        data: sessionData(kind),
      }))
    )
      return;

    const record: StartedCheckout = {
      cartId,
      kind,
      lines: { [variant]: quantity },
      keys: [],
      orderId: null,
      errors: [],
      repeats: 0,
      conflictingOrders: [],
    };
    started.push(record);
    figures.checkouts++;
    await complete(record);
    // A client that lost the answer sends the same request again under the same key.
    if (kind === "double_submit" && record.keys.length) await complete(record, record.keys.at(-1));
    // Half the declined shoppers pay with another card.
    if (kind === "decline" && !record.orderId && Math.random() < 0.5) {
      if (
        await step("POST", `/store/payment-collections/${collectionId}/payment-sessions`, {
          provider_id: "pp_test",
          data: { behavior: "authorize" },
        })
      )
        await complete(record);
    }
    if (record.orderId) {
      figures.orders++;
      placed.push(record.orderId);
    }
  }

  return {
    figures,
    started,
    /** Orders placed and not yet taken by the admin work. */
    placed,
    /** One user action: browsing or a checkout. */
    act: () => (Math.random() < 0.45 ? browse() : checkout()),
  };
}
