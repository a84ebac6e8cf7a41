import { errors } from "@kasse/db";
import type { PaymentProvider, ProviderCall } from "./provider";

type Behavior = "authorize" | "decline" | "requires_more" | "error";

function behavior(call: ProviderCall, key: "behavior" | "capture_behavior" | "refund_behavior"): Behavior {
  const value = call.data[key] ?? call.context?.[key];
  return value === "decline" || value === "requires_more" || value === "error" ? value : "authorize";
}

/** A provider failure that retrying won't fix within one checkout: the test provider's `error`. */
const providerFailure = (what: string) => errors.provider(`pp_test: the provider failed to ${what}`, { retryable: false });

/**
 * `pp_test` (docs/CONTRACT.md): deterministic outcomes from the session's `data.behavior`
 * (`authorize`, `decline`, `requires_more`, `error`), and `capture_behavior` / `refund_behavior`
 * for later calls. It records each idempotency key, so a repeated call answers as the first.
 */
export function createTestProvider(): PaymentProvider {
  const seen = new Map<string, unknown>();
  const once = async <T>(call: ProviderCall, op: string, fn: () => Promise<T>): Promise<T> => {
    const key = `${op}:${call.idempotencyKey}`;
    if (seen.has(key)) return seen.get(key) as T;
    const result = await fn();
    seen.set(key, result);
    return result;
  };
  return {
    id: "pp_test",
    initiate: async (call) => ({ data: { ...call.data, behavior: behavior(call, "behavior"), client_secret: `pp_test_secret_${call.idempotencyKey}` } }),
    authorize: (call) =>
      once(call, "authorize", async () => {
        const b = behavior(call, "behavior");
        if (b === "error") throw providerFailure("authorize");
        if (b === "decline") return { status: "declined" as const, data: { ...call.data }, message: "Payment was declined by pp_test" };
        if (b === "requires_more") return { status: "requires_more" as const, data: { ...call.data } };
        return { status: "authorized" as const, data: { ...call.data, authorized: true } };
      }),
    capture: (call) =>
      once(call, "capture", async () => {
        const b = behavior(call, "capture_behavior");
        if (b === "error") throw providerFailure("capture");
        if (b === "decline") throw errors.invalidData("pp_test declined the capture");
        return { data: { ...call.data } };
      }),
    refund: (call) =>
      once(call, "refund", async () => {
        const b = behavior(call, "refund_behavior");
        if (b === "error") throw providerFailure("refund");
        if (b === "decline") throw errors.invalidData("pp_test declined the refund");
        return { data: { ...call.data } };
      }),
    cancel: async (call) => ({ data: { ...call.data, canceled: true } }),
    getStatus: async (call) => (behavior(call, "behavior") === "authorize" ? "authorized" : "pending"),
  };
}
