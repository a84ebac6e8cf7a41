import type { Modules } from "@kasse/modules";
import type { SalesChannelFilters } from "@kasse/modules/sales-channel";

/** A channel list's filters, with the two that name records of other modules (as Medusa's list takes them). */
export interface SalesChannelQuery extends SalesChannelFilters {
  /** Only channels a publishable key of these opens to a storefront. */
  publishable_key_id?: string[];
  /** Only channels these stock locations serve. */
  location_id?: string[];
}

/**
 * Sales channels by their own filters and by the keys and locations linked to them: the links
 * live in the api-key and stock-location modules, so each is read there and narrows the `id` filter.
 */
export async function listSalesChannels(
  m: Modules,
  { publishable_key_id, location_id, ...filters }: SalesChannelQuery,
  page: { limit: number; offset: number; order?: string },
) {
  const narrowings = await Promise.all([
    publishable_key_id ? m.apiKey.salesChannelIdsOfKeys(publishable_key_id) : undefined,
    location_id ? m.stockLocation.salesChannelIdsOfLocations(location_id) : undefined,
  ]);
  let ids = filters.id;
  for (const linked of narrowings) {
    if (!linked) continue;
    ids = ids ? ids.filter((id) => linked.includes(id)) : linked;
  }
  // An empty id filter filters nothing in a module's list: no linked channel is an empty page here.
  if (ids?.length === 0) return { items: [], count: 0 };
  return m.salesChannel.list({ ...filters, ...(ids ? { id: ids } : {}) }, page);
}
