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

/** The built-in providers (`pp_system_default`, `pp_test`) plus any given. */
export function createProviderRegistry(extra: PaymentProvider[] = []): ProviderRegistry {
  const byId = new Map<string, PaymentProvider>([systemProvider, createTestProvider(), ...extra].map((p) => [p.id, p]));
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
