import { errors } from "@kasse/db";
import type { PaymentProvider } from "./provider";
import { systemProvider } from "./system";
import { createTestProvider } from "./test-provider";

/** The payment providers this process knows, by id. */
export interface ProviderRegistry {
  get(id: string): PaymentProvider;
  has(id: string): boolean;
  ids(): string[];
}

/**
 * One `pp_test` per process: what it remembers by idempotency key (answers, `flaky` failures) must
 * outlive the payment services built for each step and request, as a real provider's would.
 */
const testProvider = createTestProvider();

/** The built-in providers (`pp_system_default`, `pp_test`) plus any given. */
export function createProviderRegistry(extra: PaymentProvider[] = []): ProviderRegistry {
  const byId = new Map<string, PaymentProvider>([systemProvider, testProvider, ...extra].map((p) => [p.id, p]));
  return {
    get(id) {
      const provider = byId.get(id);
      if (!provider) throw errors.invalidData(`Payment provider ${id} is not available`);
      return provider;
    },
    has: (id) => byId.has(id),
    ids: () => [...byId.keys()],
  };
}
