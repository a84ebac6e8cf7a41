import { errors } from "@kasse/core";
import { parseFields, project } from "./fields";
import { listResponse } from "./schemas";

/** What a provider list takes: ids, a text search, enabled or not, a page, the one order (`id`) and `fields`. */
interface ProviderQuery {
  id?: string[];
  q?: string;
  is_enabled?: boolean;
  limit: number;
  offset: number;
  order?: string;
  fields?: string;
}

/**
 * A page of the providers this process registered (payment, fulfillment, tax), each enabled, as
 * Medusa lists them: `{<key>: [{id, is_enabled}], count, offset, limit}`. Providers are named only
 * by id, so that is the one order there is (400 for another).
 * @example
 * return providerPage("payment_providers", app.modules.payment.providers.ids(), request.query);
 */
export function providerPage<K extends string>(key: K, ids: string[], query: ProviderQuery) {
  const { id, q, is_enabled, limit, offset, order, fields } = query;
  if (order !== undefined && !["id", "+id", "-id"].includes(order))
    throw errors.invalidData(`Cannot order by '${order.replace(/^[-+]/, "")}'`);
  const sorted = [...ids].sort();
  if (order === "-id") sorted.reverse();
  const matching = sorted
    .filter((p) => (!id || id.includes(p)) && (!q || p.includes(q.toLowerCase())) && is_enabled !== false)
    .map((p) => ({ id: p, is_enabled: true }));
  return listResponse(key, project(matching.slice(offset, offset + limit), parseFields(fields)), matching.length, {
    limit,
    offset,
  });
}
