import { errors, generateId } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging } from "@kasse/db";
import { insertPrices, priceValues, ruleMap, toDate, toPrice, validatePrices, type Price } from "./prices";
import { pricingQueries as q } from "./queries";
import type { PriceListRow } from "./schema";
import type { PriceListCreate, PriceListFilters, PriceListPricesBatch, PriceListUpdate } from "./shapes";

/** A price list as the Admin API shows it: Medusa's shape, rules as `{attribute: values[]}`. */
export type PriceList = Omit<PriceListRow, "deleted_at"> & { rules: Record<string, string[]>; prices: Price[] };

/** What a batch did, as Medusa answers `POST /admin/price-lists/{id}/prices/batch`. */
export interface PriceListBatchResult {
  created: Price[];
  updated: Price[];
  deleted: { ids: string[]; object: "price"; deleted: true };
}

type RulesInput = NonNullable<PriceListCreate["rules"]>;

/**
 * Price lists: sale and override prices for customer groups and regions, in effect while
 * `active` and within their dates. Built once per process; every method runs in the transaction in
 * progress, if any.
 * @example
 * await createPriceListService().create({ title: "VIP", type: "override", rules: [{ rule_type: "customer_group_id", value: "cusgroup_1" }] });
 */
export function createPriceListService() {
  const service = {
    async create(input: PriceListCreate): Promise<PriceList> {
      const { rules = [], prices = [], starts_at, ends_at, ...fields } = input;
      checkDates(starts_at, ends_at);
      validatePrices(prices);
      const id = generateId("plist");
      await transaction(async () => {
        await q.lists.insert({ ...fields, id, starts_at: toDate(starts_at), ends_at: toDate(ends_at) });
        await setRules(id, rules);
        await insertPrices(id, prices);
      });
      return service.retrieve(id);
    },

    retrieve: async (id: string): Promise<PriceList> => (await withRelations([await q.lists.retrieve(id)]))[0]!,

    /** The variants the live lists among `ids` price, each once. */
    async variantIds(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      return (await q.variantsOfLists({ ids })).map((r) => r.variant_id);
    },

    /** A page of a price list's prices (404 for an unknown list), ordered by variant, currency and tier. */
    async listPrices(
      id: string,
      filters: { id?: string[]; variant_id?: string[]; currency_code?: string[] },
      page: ListPaging,
    ): Promise<{ items: Price[]; count: number }> {
      if (!(await q.lists.find(id))) throw q.lists.notFound(id);
      return viewPage(q.listPrices(id, filters, page), (items) => items.map(toPrice));
    },

    list: (filters: PriceListFilters, page: ListPaging) => viewPage(q.lists.list(filters, page), withRelations),

    /** Updates fields; `rules` and `prices`, when given, replace the list's current ones. */
    async update(id: string, input: PriceListUpdate): Promise<PriceList> {
      const existing = await service.retrieve(id);
      const startsAt = input.starts_at === undefined ? existing.starts_at : toDate(input.starts_at);
      const endsAt = input.ends_at === undefined ? existing.ends_at : toDate(input.ends_at);
      checkDates(startsAt, endsAt);
      validatePrices(input.prices ?? []);
      const { rules, prices, starts_at, ends_at, ...fields } = input;
      await transaction(async () => {
        await q.lists.update(id, {
          ...fields,
          ...(starts_at !== undefined ? { starts_at: startsAt } : {}),
          ...(ends_at !== undefined ? { ends_at: endsAt } : {}),
          updated_at: new Date(),
        });
        if (rules) {
          await q.deleteRulesOf({ list_id: id });
          await setRules(id, rules);
        }
        if (prices) {
          await q.deletePricesOf({ list_id: id });
          await insertPrices(id, prices);
        }
      });
      return service.retrieve(id);
    },

    /** Soft-deletes the list; its prices and rules go with it. */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        await q.lists.softDelete(id);
        await q.deletePricesOf({ list_id: id });
        await q.deleteRulesOf({ list_id: id });
      });
    },

    /** Creates, updates and deletes the list's prices in one transaction: all or nothing. */
    async batchPrices(id: string, batch: PriceListPricesBatch): Promise<PriceListBatchResult> {
      await service.retrieve(id);
      const creates = batch.create ?? [];
      const updates = batch.update ?? [];
      const deletes = [...new Set(batch.delete ?? [])];
      validatePrices(creates);
      return transaction(async () => {
        const touched = [...new Set([...updates.map((u) => u.id), ...deletes])];
        const owned = touched.length ? await q.lockListPrices({ list_id: id, ids: touched }) : [];
        const missing = touched.filter((pid) => !owned.some((p) => p.id === pid));
        if (missing.length)
          throw errors.notFound(`Prices with ids: ${missing.join(", ")} were not found in price list ${id}`);
        const updated: Price[] = [];
        for (const change of updates) {
          const current = owned.find((p) => p.id === change.id)!;
          const merged = {
            currency_code: change.currency_code ?? current.currency_code,
            amount: change.amount ?? current.amount,
            min_quantity: change.min_quantity === undefined ? current.min_quantity : change.min_quantity,
            max_quantity: change.max_quantity === undefined ? current.max_quantity : change.max_quantity,
            rules: change.rules ?? (current.region_id ? { region_id: current.region_id } : {}),
          };
          validatePrices([merged]);
          const row = await q.updatePrice({
            id: change.id,
            variant_id: change.variant_id ?? current.variant_id,
            ...priceValues(merged),
            updated_at: new Date(),
          });
          updated.push(toPrice(row!));
        }
        if (deletes.length) await q.deletePrices({ ids: deletes });
        const created = await insertPrices(id, creates);
        await q.touchList({ id, updated_at: new Date() });
        return { created, updated, deleted: { ids: deletes, object: "price" as const, deleted: true as const } };
      });
    },

    /**
     * When the next active price list starts or ends (null: none will): prices read before that
     * moment may change at it without any write, so a cached catalog answer expires there.
     */
    async nextChange(): Promise<Date | null> {
      return toDate((await q.nextChange())?.at);
    },

    /** Removes one price from the list. */
    async deletePrice(id: string, priceId: string): Promise<void> {
      await service.retrieve(id);
      if (!(await q.deleteListPrice({ list_id: id, id: priceId })))
        throw errors.notFound(`Price with id: ${priceId} was not found in price list ${id}`);
    },
  };
  return service;
}

export type PriceListService = ReturnType<typeof createPriceListService>;

function checkDates(startsAt: string | Date | null | undefined, endsAt: string | Date | null | undefined): void {
  const start = toDate(startsAt);
  const end = toDate(endsAt);
  if (start && end && end.getTime() <= start.getTime()) throw errors.invalidData("ends_at must be after starts_at");
}

/** Both accepted rule forms as (attribute, value) pairs, de-duplicated. */
function rulePairs(rules: RulesInput): Array<{ attribute: string; value: string }> {
  const pairs = Array.isArray(rules)
    ? rules.map((r) => ({ attribute: r.rule_type, value: r.value }))
    : Object.entries(rules).flatMap(([attribute, values]) => (values ?? []).map((value) => ({ attribute, value })));
  return [...new Map(pairs.map((p) => [`${p.attribute}\u0000${p.value}`, p])).values()];
}

async function setRules(listId: string, rules: RulesInput): Promise<void> {
  const pairs = rulePairs(rules);
  if (pairs.length) await q.insertRules(pairs.map((p) => ({ id: generateId("plrule"), price_list_id: listId, ...p })));
}

/** Rules and prices of a page of lists: one query per relation. */
async function withRelations(rows: PriceListRow[]): Promise<PriceList[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [rules, prices] = await Promise.all([q.rulesOf(ids), q.pricesOfLists(ids)]);
  const rulesByList = groupBy(rules, (r) => r.price_list_id);
  const pricesByList = groupBy(prices, (p) => p.price_list_id, { value: toPrice });
  return rows.map(({ deleted_at: _d, ...row }) => ({
    ...row,
    rules: ruleMap(rulesByList.get(row.id) ?? []),
    prices: pricesByList.get(row.id) ?? [],
  }));
}
