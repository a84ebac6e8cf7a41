import { describe, expect, it } from "vitest";
import { formatMoney, renderTemplate } from "./templates";

const order = {
  display_id: 1042,
  currency_code: "eur",
  items: [
    { title: "Tee", variant_title: "M", quantity: 2, unit_price: 2000, total: 4000 },
    { title: "Mug", variant_title: null, quantity: 1, unit_price: 1250, total: 1250 },
  ],
  item_subtotal: 5250,
  shipping_subtotal: 500,
  discount_total: 525,
  tax_total: 0,
  total: 5225,
  shipping_address: {
    first_name: "Ada",
    last_name: "Lovelace",
    company: null,
    address_1: "Hauptstr. 1",
    address_2: null,
    city: "Berlin",
    postal_code: "10115",
    province: null,
    country_code: "de",
  },
  billing_address: {
    first_name: "Ada",
    last_name: "Lovelace",
    address_1: "Rechnungsweg 2",
    city: "Hamburg",
    postal_code: "20095",
    country_code: "de",
  },
};

describe("shopper message templates", () => {
  it("money in the order's currency, in its minor units", () => {
    expect(formatMoney(1250, "eur")).toBe("€12.50");
    expect(formatMoney(1250, "usd")).toBe("$12.50");
    expect(formatMoney(1250, "jpy")).toBe("¥1,250");
    expect(formatMoney(1250, "kwd").replace(/\s/g, " ")).toBe("KWD 1.250");
    expect(formatMoney(5, "euro")).toBe("5 EURO");
  });

  it("order confirmation: items, amounts, discount and both addresses", () => {
    const { subject, text } = renderTemplate("order.placed", order);
    expect(subject).toBe("Order #1042 confirmed");
    expect(text).toBe(
      [
        "Thank you for your order #1042.",
        "",
        "Items:",
        "  2 × Tee (M): €40.00",
        "  1 × Mug: €12.50",
        "",
        "Items: €52.50",
        "Shipping: €5.00",
        "Discount: -€5.25",
        "Tax: €0.00",
        "Total: €52.25",
        "",
        "Shipping to:",
        "  Ada Lovelace",
        "  Hauptstr. 1",
        "  10115 Berlin",
        "  DE",
        "",
        "Billing address:",
        "  Ada Lovelace",
        "  Rechnungsweg 2",
        "  20095 Hamburg",
        "  DE",
      ].join("\n"),
    );
  });

  it("what a shopper typed stays on its line: no line, header or Bcc of its own", () => {
    const hostile = {
      ...order,
      display_id: "1042\r\nBcc: victim@example.com",
      items: [{ title: "Tee\n\nYour card was declined: call +1 555 0100", quantity: 1, total: 100 }],
      shipping_address: {
        ...order.shipping_address,
        first_name: "Ada\r\nBcc: victim@example.com",
        city: "Ber\u2028lin\t",
      },
    };
    const { subject, text } = renderTemplate("order.placed", hostile);
    expect(subject).toBe("Order #1042 Bcc: victim@example.com confirmed");
    expect(subject).not.toMatch(/[\r\n]/);
    expect(text).toContain("  1 × Tee Your card was declined: call +1 555 0100: €1.00");
    expect(text).toContain("  Ada Bcc: victim@example.com Lovelace");
    expect(text).toContain("  10115 Ber lin ");
    expect(text.split("\n").filter((line) => /^\s*(Bcc|Your card)/.test(line))).toEqual([]);
    // Unknown templates: a JSON body (control characters escaped) and a one-line subject.
    const unknown = renderTemplate("custom\r\nBcc: x@example.com", { note: "a\r\nb" });
    expect(unknown.subject).toBe("custom Bcc: x@example.com");
    expect(unknown.text).toBe('{\n  "note": "a\\r\\nb"\n}');
  });

  it("shipment with tracking, and without", () => {
    const shipped = renderTemplate("order.shipped", {
      ...order,
      items: order.items.slice(0, 1),
      tracking: [{ number: "1Z999", url: "https://track.example.com/1Z999" }],
    });
    expect(shipped.subject).toBe("Order #1042 has shipped");
    expect(shipped.text).toContain(
      "  2 × Tee (M): €40.00\n\nTracking:\n  1Z999 https://track.example.com/1Z999\n\nShipping to:",
    );
    expect(shipped.text).not.toContain("Mug");
    expect(renderTemplate("order.shipped", { ...order, tracking: [] }).text).toContain(
      "No tracking number was given for this shipment.",
    );
  });

  it("cancellation and refund", () => {
    expect(renderTemplate("order.canceled", order)).toEqual({
      subject: "Order #1042 canceled",
      text: "Your order #1042 (€52.25) was canceled.\n\nAny payment authorized for it is released, and anything already charged is refunded.",
    });
    expect(renderTemplate("order.refunded", { display_id: 1042, amount: 1500, currency_code: "jpy" })).toEqual({
      subject: "Refund for order #1042",
      text: "We refunded ¥1,500 for your order #1042.\n\nDepending on your bank, it can take a few days to appear on your statement.",
    });
  });
});

describe("order.edited", () => {
  it("shows the changed lines and total, and what is owed either way (nothing when settled)", () => {
    const edited = (pending_difference: number) => renderTemplate("order.edited", { ...order, pending_difference });
    expect(edited(1250).subject).toBe("Order #1042 was changed");
    expect(edited(1250).text).toContain("Your order #1042 was changed. It now holds:");
    expect(edited(1250).text).toContain("Total: €52.25\nStill to pay: €12.50");
    expect(edited(-500).text).toContain("Total: €52.25\nDue back to you: €5.00");
    expect(edited(0).text).not.toMatch(/Still to pay|Due back/);
  });
});

describe("after-sale changes", () => {
  const tee = { title: "Tee", variant_title: "M", quantity: 1, total: 2000 };
  const mug = { title: "Mug", variant_title: null, quantity: 1, total: 1250 };

  it("an exchange: what comes back, what is sent out, the new total and what is owed", () => {
    const { subject, text } = renderTemplate("order.exchange", {
      ...order,
      returned: [tee],
      sent: [mug],
      pending_difference: -750,
    });
    expect(subject).toBe("Exchange for order #1042 confirmed");
    expect(text).toBe(
      [
        "We confirmed an exchange on your order #1042.",
        "",
        "Please send back:",
        "  1 × Tee (M): €20.00",
        "",
        "We send you:",
        "  1 × Mug: €12.50",
        "",
        "New order total: €52.25",
        "Due back to you: €7.50",
      ].join("\n"),
    );
  });

  it("a claim: the claimed units, a refund claim's amount or a replacement's lines, and the balance", () => {
    const refund = renderTemplate("order.claim", {
      ...order,
      claimed: [tee],
      claim_type: "refund",
      refund_amount: 2000,
      pending_difference: 0,
    });
    expect(refund.subject).toBe("Claim for order #1042 confirmed");
    expect(refund.text).toContain("Claimed items:\n  1 × Tee (M): €20.00\n\nRefunded for the claimed items: €20.00");
    expect(refund.text).toContain("Nothing is left to pay.");
    const replace = renderTemplate("order.claim", {
      ...order,
      claimed: [tee],
      sent: [tee],
      claim_type: "replace",
      pending_difference: 500,
    });
    expect(replace.text).toContain("We send you, at no charge:\n  1 × Tee (M): €20.00");
    expect(replace.text).not.toContain("Refunded");
    expect(replace.text).toContain("Still to pay: €5.00");
  });

  it("a return requested and received: the units, the return shipping, what they bring back", () => {
    const requested = renderTemplate("order.return_requested", {
      ...order,
      returned: [tee],
      return_shipping: 300,
      refund_on_receipt: 1700,
    });
    expect(requested.subject).toBe("Return for order #1042 requested");
    expect(requested.text).toContain("Please send back:\n  1 × Tee (M): €20.00\n\nReturn shipping: €3.00");
    expect(requested.text).toContain("Once they arrive, €17.00 comes off what you pay");
    const received = renderTemplate("order.return_received", { ...order, received: [tee], pending_difference: -1700 });
    expect(received.subject).toBe("Return for order #1042 received");
    expect(received.text).toContain("Received:\n  1 × Tee (M): €20.00\n\nDue back to you: €17.00");
  });
});

describe("order.transfer_requested", () => {
  const data = { order_id: "order_1", token: "tok-123", expires_at: "2026-12-01T00:00:00.000Z" };

  it("links to the storefront's transfer page when STOREFRONT_URL is configured", () => {
    const { subject, text } = renderTemplate("order.transfer_requested", {
      ...data,
      storefront_url: "https://shop.example/",
    });
    expect(subject).toBe("Confirm the transfer of your order");
    expect(text).toContain("https://shop.example/order/order_1/transfer/tok-123");
    expect(text).toContain("order order_1");
    expect(text).toContain("2026-12-01T00:00:00.000Z");
  });

  it("gives the page's path without it", () => {
    const { text } = renderTemplate("order.transfer_requested", { ...data, storefront_url: null });
    expect(text).toContain(" /order/order_1/transfer/tok-123");
    expect(text).not.toContain("null");
  });
});

describe("email ownership messages", () => {
  it("the change token goes to the new address; the notice to the old one; an address cannot add lines", () => {
    const change = renderTemplate("customer.email_change", {
      token: "tok-456",
      email: "new@example.com",
      expires_at: "2026-12-01T00:00:00.000Z",
    });
    expect(change.subject).toBe("Confirm your new email address");
    expect(change.text).toContain("Your confirmation token: tok-456");
    expect(change.text).toContain("to use new@example.com as its email address");
    const notice = renderTemplate("customer.email_changed", {
      email: "new@example.com\r\nBcc: evil@example.com",
      previous_email: "old@example.com",
    });
    expect(notice.subject).toBe("Your account's email address changed");
    expect(notice.text).toContain("from old@example.com to new@example.com Bcc: evil@example.com,");
    expect(notice.text.split("\n")).toHaveLength(3);
  });

  it("a reset of an account whose address nobody proved says what the reset takes over", () => {
    const data = { token: "tok-789", expires_at: "2026-12-01T00:00:00.000Z" };
    expect(renderTemplate("auth.password_reset", data).text).not.toContain("never confirmed");
    const unconfirmed = renderTemplate("auth.password_reset", { ...data, unconfirmed: true }).text;
    expect(unconfirmed).toContain("This address was never confirmed for the account registered with it");
    expect(unconfirmed).toContain("check them before you use it");
  });
});
