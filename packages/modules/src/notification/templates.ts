/** Subject and body of a message. */
export interface RenderedMessage {
  subject: string;
  text: string;
}

type Template = (data: Record<string, unknown>) => RenderedMessage;

/** Control characters, line breaks and Unicode line separators: what could start a line or a header of its own. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;

/**
 * A value as one line of text: control characters become a space, so a name or an address line
 * (or any value a shopper typed) cannot add lines of its own to a message or a header to its
 * subject. Messages are plain text (no HTML body), so nothing in them is markup to escape.
 */
const str = (value: unknown) => (value === undefined || value === null ? "" : String(value).replace(CONTROL, " "));

/**
 * An amount in minor units, in its currency, as a shopper reads it: `formatMoney(1250, "eur")` is
 * "€12.50", `formatMoney(1250, "jpy")` "¥1,250".
 */
export function formatMoney(amount: unknown, currency: unknown): string {
  const code = String(currency ?? "").toUpperCase();
  const minor = typeof amount === "number" ? amount : Number(amount ?? 0);
  const format = currencyFormat(code);
  if (!format) return `${minor} ${code}`;
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

// A formatter per currency, made once: making one costs a few tenths of a millisecond, and an
// order's mail formats every line and total. Null for a code Intl does not know.
const formats = new Map<string, Intl.NumberFormat | null>();

function currencyFormat(code: string): Intl.NumberFormat | null {
  let format = formats.get(code);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat("en", { style: "currency", currency: code });
    } catch {
      format = null;
    }
    // Codes come from stored orders (a region's currency): few, but bounded anyway.
    if (formats.size < 500) formats.set(code, format);
  }
  return format;
}

interface LineData {
  title?: unknown;
  variant_title?: unknown;
  quantity?: unknown;
  unit_price?: unknown;
  total?: unknown;
}

/** The units listed under `key` (default the order's `items`), one line each with what they are worth. */
const lines = (data: Record<string, unknown>, key = "items"): string[] =>
  (Array.isArray(data[key]) ? (data[key] as LineData[]) : []).map((i) => {
    const title = i.variant_title ? `${str(i.title)} (${str(i.variant_title)})` : str(i.title);
    return `  ${str(i.quantity)} × ${title}: ${formatMoney(i.total, data.currency_code)}`;
  });

const address = (label: string, value: unknown): string[] => {
  if (!value || typeof value !== "object") return [];
  const a = value as Record<string, unknown>;
  const name = [a.first_name, a.last_name].filter(Boolean).map(str).join(" ");
  const cityLine = [a.postal_code, a.city].filter(Boolean).map(str).join(" ");
  const parts = [name, a.company, a.address_1, a.address_2, cityLine, a.province, str(a.country_code).toUpperCase()]
    .map(str)
    .filter((p) => p !== "");
  return parts.length ? [`${label}:`, ...parts.map((p) => `  ${p}`)] : [];
};

/** Units under `key` with a heading, or nothing when there are none. */
const section = (heading: string, data: Record<string, unknown>, key: string): string[] => {
  const listed = lines(data, key);
  return listed.length ? ["", heading, ...listed] : [];
};

/** What the shopper still owes on the order (`pending_difference`), or what is due back to them. */
const balance = (data: Record<string, unknown>): string[] => {
  const difference = Number(data.pending_difference ?? 0);
  if (difference > 0) return [`Still to pay: ${formatMoney(difference, data.currency_code)}`];
  if (difference < 0) return [`Due back to you: ${formatMoney(-difference, data.currency_code)}`];
  return ["Nothing is left to pay."];
};

/** Joins lines, collapsing repeated blank lines (optional parts leave none behind). */
const text = (parts: string[]) =>
  parts
    .filter((line, i, all) => line !== "" || all[i - 1] !== "")
    .join("\n")
    .trim();

/** The built-in templates, by name. A template not listed here renders its data as JSON. */
const templates: Record<string, Template> = {
  "order.placed": (data) => ({
    subject: `Order #${str(data.display_id)} confirmed`,
    text: text([
      `Thank you for your order #${str(data.display_id)}.`,
      "",
      "Items:",
      ...lines(data),
      "",
      `Items: ${formatMoney(data.item_subtotal, data.currency_code)}`,
      `Shipping: ${formatMoney(data.shipping_subtotal, data.currency_code)}`,
      Number(data.discount_total) > 0 ? `Discount: -${formatMoney(data.discount_total, data.currency_code)}` : "",
      `Tax: ${formatMoney(data.tax_total, data.currency_code)}`,
      `Total: ${formatMoney(data.total, data.currency_code)}`,
      "",
      ...address("Shipping to", data.shipping_address),
      "",
      ...address("Billing address", data.billing_address),
    ]),
  }),
  "order.shipped": (data) => {
    const tracking = Array.isArray(data.tracking) ? (data.tracking as Array<{ number?: unknown; url?: unknown }>) : [];
    return {
      subject: `Order #${str(data.display_id)} has shipped`,
      text: text([
        `Items of your order #${str(data.display_id)} are on their way.`,
        "",
        ...lines(data),
        "",
        ...(tracking.length
          ? ["Tracking:", ...tracking.map((t) => `  ${str(t.number)}${t.url ? ` ${str(t.url)}` : ""}`)]
          : ["No tracking number was given for this shipment."]),
        "",
        ...address("Shipping to", data.shipping_address),
      ]),
    };
  },
  "order.edited": (data) => ({
    subject: `Order #${str(data.display_id)} was changed`,
    text: text([
      `Your order #${str(data.display_id)} was changed. It now holds:`,
      "",
      ...lines(data),
      "",
      `Total: ${formatMoney(data.total, data.currency_code)}`,
      ...(Number(data.pending_difference ?? 0) !== 0 ? balance(data) : []),
    ]),
  }),
  "order.exchange": (data) => ({
    subject: `Exchange for order #${str(data.display_id)} confirmed`,
    text: text([
      `We confirmed an exchange on your order #${str(data.display_id)}.`,
      ...section("Please send back:", data, "returned"),
      ...section("We send you:", data, "sent"),
      "",
      `New order total: ${formatMoney(data.total, data.currency_code)}`,
      ...balance(data),
    ]),
  }),
  "order.claim": (data) => ({
    subject: `Claim for order #${str(data.display_id)} confirmed`,
    text: text([
      `We confirmed your claim on order #${str(data.display_id)}.`,
      ...section("Claimed items:", data, "claimed"),
      ...(data.claim_type === "refund"
        ? ["", `Refunded for the claimed items: ${formatMoney(data.refund_amount, data.currency_code)}`]
        : []),
      ...section("We send you, at no charge:", data, "sent"),
      ...section("Please send back:", data, "returned"),
      "",
      `New order total: ${formatMoney(data.total, data.currency_code)}`,
      ...balance(data),
    ]),
  }),
  "order.return_requested": (data) => {
    const shipping = Number(data.return_shipping ?? 0);
    return {
      subject: `Return for order #${str(data.display_id)} requested`,
      text: text([
        `A return of items of your order #${str(data.display_id)} was requested.`,
        ...section("Please send back:", data, "returned"),
        "",
        ...(shipping > 0 ? [`Return shipping: ${formatMoney(shipping, data.currency_code)}`] : []),
        `Once they arrive, ${formatMoney(data.refund_on_receipt, data.currency_code)} comes off what you pay, refunded as far as you have already paid.`,
      ]),
    };
  },
  "order.return_received": (data) => ({
    subject: `Return for order #${str(data.display_id)} received`,
    text: text([
      `We received your return for order #${str(data.display_id)}.`,
      ...section("Received:", data, "received"),
      "",
      ...balance(data),
    ]),
  }),
  "order.canceled": (data) => ({
    subject: `Order #${str(data.display_id)} canceled`,
    text: text([
      `Your order #${str(data.display_id)} (${formatMoney(data.total, data.currency_code)}) was canceled.`,
      "",
      "Any payment authorized for it is released, and anything already charged is refunded.",
    ]),
  }),
  "order.refunded": (data) => ({
    subject: `Refund for order #${str(data.display_id)}`,
    text: text([
      `We refunded ${formatMoney(data.amount, data.currency_code)} for your order #${str(data.display_id)}.`,
      "",
      "Depending on your bank, it can take a few days to appear on your statement.",
    ]),
  }),
  "auth.password_reset": (data) => ({
    subject: "Reset your password",
    text: text([
      "A password reset was requested for this email address.",
      "",
      `Your reset token: ${str(data.token)}`,
      data.url ? `Or open: ${str(data.url)}` : "",
      "",
      `The token works once and expires at ${str(data.expires_at)}. If you did not ask for it, ignore this message.`,
      ...(data.unconfirmed
        ? [
            "",
            "This address was never confirmed for the account registered with it, so it may not be you who registered it.",
            "Resetting the password confirms that the account is yours: every other sign-in ends and any second factor is removed.",
            "The account keeps what it holds now (name, saved addresses, orders): check them before you use it, and delete what you do not recognize.",
          ]
        : []),
    ]),
  }),
  "customer.email_change": (data) => ({
    subject: "Confirm your new email address",
    text: text([
      `A customer account asked to use ${str(data.email)} as its email address.`,
      "",
      `Your confirmation token: ${str(data.token)}`,
      "",
      `Enter it in the store while signed in to the account that asked. It works once and expires at ${str(data.expires_at)}.`,
      "Never give it to anyone. If you did not ask for it, ignore this message: nothing changes, and no account can take this address without the token.",
    ]),
  }),
  "customer.email_changed": (data) => ({
    subject: "Your account's email address changed",
    text: text([
      `The email address of your customer account changed from ${str(data.previous_email)} to ${str(data.email)}, which was confirmed with a token sent to it.`,
      "",
      "From now on you sign in with the new address. If you did not make this change, contact the store.",
    ]),
  }),
  "user.invite": (data) => ({
    subject: "You are invited to administer the store",
    text: text([
      `An admin invited ${str(data.email)} to become an admin user of this store.`,
      "",
      `Your invite token: ${str(data.token)}`,
      data.url ? `Or open: ${str(data.url)}` : "",
      "",
      `Register with this email, then accept the invite with the token. It works once and expires at ${str(data.expires_at)}. If you did not expect it, ignore this message.`,
    ]),
  }),
  "order.transfer_requested": (data) => {
    // The storefront's page for the link: `/order/{id}/transfer/{token}` (Medusa's storefront adds the country).
    const path = `/order/${str(data.order_id)}/transfer/${str(data.token)}`;
    return {
      subject: "Confirm the transfer of your order",
      text: text([
        `A customer account asked to take over order ${str(data.order_id)}, placed with this email address.`,
        "",
        data.storefront_url
          ? `To accept or decline, open: ${str(data.storefront_url).replace(/\/+$/, "")}${path}`
          : `To accept or decline, open this page of the store: ${path}`,
        "",
        `The link works once and expires at ${str(data.expires_at)}. If you do not know this account, decline or ignore this message: the order stays yours.`,
      ]),
    };
  },
};

/**
 * Renders a notification's subject and text.
 * @example
 * renderTemplate("auth.password_reset", { token: "abc", expires_at: "…" }).subject; // "Reset your password"
 */
export function renderTemplate(template: string, data: Record<string, unknown>): RenderedMessage {
  const render = templates[template];
  // Unknown templates show their data as JSON, whose strings escape every control character.
  const message = render ? render(data) : { subject: template, text: JSON.stringify(data, null, 2) };
  // The subject is a mail header: one line whatever went into it.
  return { ...message, subject: str(message.subject) };
}
