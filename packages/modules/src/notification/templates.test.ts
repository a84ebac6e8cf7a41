import { describe, expect, it } from "vitest";
import { renderTemplate } from "./templates";

describe("order.transfer_requested", () => {
  const data = { order_id: "order_1", token: "tok-123", expires_at: "2026-12-01T00:00:00.000Z" };

  it("links to the storefront's transfer page when STOREFRONT_URL is configured", () => {
    const { subject, text } = renderTemplate("order.transfer_requested", { ...data, storefront_url: "https://shop.example/" });
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
