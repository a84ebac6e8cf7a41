import { jsonb } from "drizzle-orm/pg-core";
import { generateId } from "@kasse/core";

/** An address as a cart or an order stores it (Medusa's shape): JSON, with its own id. */
export interface StoredAddress {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  postal_code: string | null;
  province: string | null;
  country_code: string | null;
  phone: string | null;
  metadata: Record<string, unknown> | null;
}

/** A cart's or an order's address column (JSON, {@link StoredAddress}). */
export const storedAddress = (name: string) => jsonb(name).$type<StoredAddress>();

/**
 * `existing` (or an empty address with a new id of `idPrefix`) with every field `input` gives set
 * (`undefined` leaves a field as it is), the country lower case: how a cart or an order takes an
 * address from a request.
 */
export function toStoredAddress(
  idPrefix: string,
  input: Partial<Omit<StoredAddress, "id">>,
  existing?: StoredAddress | null,
): StoredAddress {
  const address: StoredAddress = existing
    ? { ...existing }
    : {
        id: generateId(idPrefix),
        first_name: null,
        last_name: null,
        company: null,
        address_1: null,
        address_2: null,
        city: null,
        postal_code: null,
        province: null,
        country_code: null,
        phone: null,
        metadata: null,
      };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    (address as unknown as Record<string, unknown>)[key] =
      key === "country_code" && typeof value === "string" ? value.toLowerCase() : value;
  }
  return address;
}
