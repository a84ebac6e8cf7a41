import { providerRegistry, type ProviderRegistry as Registry } from "@kasse/core";
import type { PaymentProvider } from "./provider";
import { systemProvider } from "./system";
import { createTestProvider } from "./test-provider";

/** The payment providers this process knows, by id. */
export type ProviderRegistry = Registry<PaymentProvider>;

/**
 * One `pp_test` per process: what it remembers by idempotency key (answers, `flaky` failures) must
 * outlive the payment services built for each step and request, as a real provider's would.
 */
const testProvider = createTestProvider();

/** The built-in providers (`pp_system_default`, `pp_test`) plus any given. */
export function createProviderRegistry(extra: PaymentProvider[] = []): ProviderRegistry {
  return providerRegistry("Payment", [systemProvider, testProvider, ...extra]);
}
