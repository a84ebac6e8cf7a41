import { errors, providerRegistry, type ProviderRegistry } from "@kasse/core";

/** What a fulfillment provider is asked to fulfill: an order's units at a location. */
export interface FulfillmentProviderCall {
  order_id: string;
  location_id: string;
  items: Array<{ line_item_id: string; quantity: number }>;
  /** The shipping option's data with the order's shipping method's data over it (a carrier's service code, …). */
  data: Record<string, unknown>;
  /** Stable across retries and resumes: a provider does the same call once. */
  idempotencyKey: string;
}

/**
 * A fulfillment provider (`manual_manual`, a carrier integration): creates the fulfillment on its
 * side and cancels it. Called by the create-fulfillment saga with the step's idempotency key, and
 * cancelled by its compensation when a later step fails.
 */
export interface FulfillmentProvider {
  id: string;
  /** What an admin can set a shipping option up with (Medusa's fulfillment options); `is_return` for returns. */
  options: ReadonlyArray<{ id: string; is_return?: boolean }>;
  /** Creates the fulfillment; answers the provider's data, stored on the fulfillment. Throws to fail the step. */
  createFulfillment(call: FulfillmentProviderCall): Promise<{ data: Record<string, unknown> }>;
  /** Cancels a fulfillment this provider created (`data` as it answered). */
  cancelFulfillment(call: { data: Record<string, unknown>; idempotencyKey: string }): Promise<void>;
}

/** The default provider: nothing outside Kasse (the merchant packs and ships by hand). */
export const manualFulfillmentProvider: FulfillmentProvider = {
  id: "manual_manual",
  options: [{ id: "manual-fulfillment" }, { id: "manual-fulfillment-return", is_return: true }],
  createFulfillment: async () => ({ data: {} }),
  cancelFulfillment: async () => {},
};

/**
 * `ful_test`: a provider for tests, as `pp_test` is for payments. Its behaviour comes from the
 * shipping option's (or method's) `data.behavior`: `fail` (the provider refuses: 502
 * `provider_error`, not retried), `hang` (never answers: the step's timeout fails it), else it
 * succeeds. Each idempotency key is served once; `canceled()` lists the ids it was asked to cancel.
 */
export function createTestFulfillmentProvider(): FulfillmentProvider & { canceled(): string[] } {
  const created = new Map<string, { data: Record<string, unknown> }>();
  const canceled = new Set<string>();
  return {
    id: "ful_test",
    options: [{ id: "ful-test" }, { id: "ful-test-return", is_return: true }],
    async createFulfillment(call) {
      const seen = created.get(call.idempotencyKey);
      if (seen) return seen;
      if (call.data.behavior === "fail")
        throw errors.provider("ful_test: the provider failed to create the fulfillment", { retryable: false });
      if (call.data.behavior === "hang") await new Promise(() => {});
      const result = { data: { ...call.data, ful_test_id: `ful_test_${call.idempotencyKey}` } };
      created.set(call.idempotencyKey, result);
      return result;
    },
    async cancelFulfillment(call) {
      if (typeof call.data.ful_test_id === "string") canceled.add(call.data.ful_test_id);
    },
    canceled: () => [...canceled],
  };
}

/** The fulfillment providers a process knows, by id. */
export type FulfillmentProviderRegistry = ProviderRegistry<FulfillmentProvider>;

/** The built-in providers (`manual_manual`, `ful_test`) plus any given. */
export function createFulfillmentProviderRegistry(extra: FulfillmentProvider[] = []): FulfillmentProviderRegistry {
  return providerRegistry("Fulfillment", [manualFulfillmentProvider, createTestFulfillmentProvider(), ...extra]);
}

/** This process's built-in providers: what steps use when the process configured none (`ctx.modules.fulfillmentProviders`). */
export const defaultFulfillmentProviders = createFulfillmentProviderRegistry();
