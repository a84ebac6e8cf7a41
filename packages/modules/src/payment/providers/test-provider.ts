import { errors } from "@kasse/core";
import type { PaymentProvider, ProviderCall } from "./provider";

const BEHAVIORS = ["decline", "requires_more", "error", "hang", "flaky"] as const;
type Behavior = "authorize" | (typeof BEHAVIORS)[number];

function behavior(call: ProviderCall, key: "behavior" | "capture_behavior" | "refund_behavior"): Behavior {
  const value = call.data[key] ?? call.context?.[key];
  return BEHAVIORS.find((b) => b === value) ?? "authorize";
}

/** A non-negative integer setting of the session's data (`hang_ms`, `fail_times`), or `fallback`. */
function count(call: ProviderCall, key: string, fallback: number | null): number | null {
  const value = call.data[key] ?? call.context?.[key];
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** Never resolves, or resolves after `ms`: a provider that does not answer in time. */
const hang = (ms: number | null) => new Promise<void>((resolve) => void (ms !== null && setTimeout(resolve, ms)));

/** A provider failure that retrying won't fix within one checkout: the test provider's `error`. */
const providerFailure = (what: string) =>
  errors.provider(`pp_test: the provider failed to ${what}`, { retryable: false });

/**
 * `pp_test` (docs/CONTRACT.md): deterministic outcomes from the session's `data.behavior`
 * (`authorize`, `decline`, `requires_more`, `error`, `hang`, `flaky`), and `capture_behavior` /
 * `refund_behavior` for later calls. It records each idempotency key, so a repeated call answers
 * as the first. `hang` never answers (with `data.hang_ms`, it authorizes that late); `flaky` fails
 * retryably `data.fail_times` times (default 2) per idempotency key, then authorizes.
 */
export function createTestProvider(): PaymentProvider {
  const seen = new Map<string, unknown>();
  const failures = new Map<string, number>();
  const once = async <T>(call: ProviderCall, op: string, fn: () => Promise<T>): Promise<T> => {
    const key = `${op}:${call.idempotencyKey}`;
    if (seen.has(key)) return seen.get(key) as T;
    const result = await fn();
    seen.set(key, result);
    return result;
  };
  /** A capture or refund, failing or declined as its `<op>_behavior` says. */
  const moveMoney = (call: ProviderCall, op: "capture" | "refund") =>
    once(call, op, async () => {
      const b = behavior(call, `${op}_behavior`);
      if (b === "error") throw providerFailure(op);
      if (b === "decline") throw errors.invalidData(`pp_test declined the ${op}`);
      return { data: { ...call.data } };
    });
  return {
    id: "pp_test",
    initiate: async (call) => ({
      data: {
        ...call.data,
        behavior: behavior(call, "behavior"),
        client_secret: `pp_test_secret_${call.idempotencyKey}`,
      },
    }),
    authorize: (call) =>
      once(call, "authorize", async () => {
        const b = behavior(call, "behavior");
        if (b === "error") throw providerFailure("authorize");
        if (b === "hang") await hang(count(call, "hang_ms", null));
        const failed = failures.get(call.idempotencyKey) ?? 0;
        const failTimes = count(call, "fail_times", 2)!;
        if (b === "flaky" && failed < failTimes) {
          failures.set(call.idempotencyKey, failed + 1);
          // provider_error is retryable: the saga's retry with the same key gets further.
          throw errors.provider(`pp_test: flaky failure ${failed + 1} of ${failTimes}`);
        }
        if (b === "decline")
          return { status: "declined" as const, data: { ...call.data }, message: "Payment was declined by pp_test" };
        if (b === "requires_more") return { status: "requires_more" as const, data: { ...call.data } };
        return { status: "authorized" as const, data: { ...call.data, authorized: true } };
      }),
    capture: (call) => moveMoney(call, "capture"),
    refund: (call) => moveMoney(call, "refund"),
    cancel: async (call) => ({ data: { ...call.data, canceled: true } }),
    getStatus: async (call) => (behavior(call, "behavior") === "authorize" ? "authorized" : "pending"),
  };
}
