import { describe, expect, it } from "vitest";
import { derivePaymentStatus } from "./payment-status";

const c = (authorized_amount: number, captured_amount = 0, refunded_amount = 0, status = "authorized") => ({
  amount: 1000,
  authorized_amount,
  captured_amount,
  refunded_amount,
  status,
});

describe("derivePaymentStatus", () => {
  it("reads the status from the collections' amounts", () => {
    expect(derivePaymentStatus("pending", [])).toBe("not_paid");
    expect(derivePaymentStatus("pending", [c(0, 0, 0, "not_paid")])).toBe("awaiting");
    expect(derivePaymentStatus("pending", [c(400)])).toBe("partially_authorized");
    expect(derivePaymentStatus("pending", [c(1000)])).toBe("authorized");
    expect(derivePaymentStatus("pending", [c(1000, 300)])).toBe("partially_captured");
    expect(derivePaymentStatus("pending", [c(1000, 1000)])).toBe("captured");
    expect(derivePaymentStatus("pending", [c(1000, 1000, 200)])).toBe("partially_refunded");
    expect(derivePaymentStatus("pending", [c(1000, 300, 300)])).toBe("refunded");
    expect(derivePaymentStatus("pending", [c(0, 0, 0, "canceled")])).toBe("canceled");
    expect(derivePaymentStatus("canceled", [c(1000, 1000, 1000)])).toBe("canceled");
    expect(derivePaymentStatus("pending", [c(1000, 1000), c(0, 0, 0, "not_paid")])).toBe("partially_captured");
  });
});
