import { errors } from "./errors";

/** The providers of one kind (payment, fulfillment) a process knows, by id. */
export interface ProviderRegistry<T> {
  /** The provider with this id; an unknown one is `invalid_data` ("<Kind> provider <id> is not available"). */
  get(id: string): T;
  has(id: string): boolean;
  ids(): string[];
}

/**
 * A {@link ProviderRegistry} of `providers` (a later one replaces an earlier one with its id).
 * @example
 * const registry = providerRegistry("Payment", [systemProvider, ...extra]);
 */
export function providerRegistry<T extends { id: string }>(kind: string, providers: T[]): ProviderRegistry<T> {
  const byId = new Map<string, T>(providers.map((p) => [p.id, p]));
  return {
    get(id) {
      const provider = byId.get(id);
      if (!provider) throw errors.invalidData(`${kind} provider ${id} is not available`);
      return provider;
    },
    has: (id) => byId.has(id),
    ids: () => [...byId.keys()],
  };
}
