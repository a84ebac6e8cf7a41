import type { Modules } from "@kasse/modules";
import { ruleValueSource, type RuleType } from "@kasse/modules/promotion";

/** What a rule form searches for: text, a page, or the values already chosen (to label them). */
export interface RuleValueQuery {
  q?: string;
  value?: string[];
  limit: number;
  offset: number;
}

/** A choice in a rule's value list. */
export interface RuleValueOption {
  label: string;
  value: string;
}

/**
 * The records a rule of `ruleType` on `attributeId` can name, labelled for a form: one list call
 * of the module that owns them (the store's currencies read the store first). Products are
 * labelled by title, tags by their value, the rest by name. 400 for an attribute without a list.
 */
export async function ruleValueOptions(
  m: Modules,
  ruleType: RuleType,
  attributeId: string,
  query: RuleValueQuery,
): Promise<RuleValueOption[]> {
  const source = ruleValueSource(ruleType, attributeId);
  const { q, value: id, limit, offset } = query;
  const page = { limit, offset };
  const named = (items: Array<{ id: string; name: string }>) => items.map((r) => ({ label: r.name, value: r.id }));
  switch (source) {
    case "customer_group":
      return named((await m.customer.listGroups({ q, id }, page)).items);
    case "region":
      return named((await m.region.list({ q, id }, page)).items);
    case "currency_code": {
      const [store] = (await m.store.list({}, { limit: 1, offset: 0 })).items;
      const supported = (store?.supported_currencies ?? []).map((c) => c.currency_code);
      const code = id ? supported.filter((c) => id.includes(c)) : supported;
      if (code.length === 0) return [];
      return (await m.currency.list({ q, code }, page)).items.map((c) => ({ label: c.name, value: c.code }));
    }
    case "product":
      return (await m.product.list({ q, id }, page, { relations: [] })).items.map((p) => ({
        label: p.title,
        value: p.id,
      }));
    case "product_category":
      return named((await m.product.categories.list({ q, id }, page)).items);
    case "product_collection":
      return (await m.product.collections.list({ q, id }, page)).items.map((c) => ({ label: c.title, value: c.id }));
    case "product_tag":
      return (await m.product.tags.list({ q, id }, page)).items.map((t) => ({ label: t.value, value: t.id }));
    case "shipping_option":
      return named((await m.fulfillment.listOptions({ q, id }, page)).items);
  }
}
