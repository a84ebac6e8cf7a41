import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { orderBy, transaction, type Db, type ListPaging, listPage, liveRecords, anyOf, textSearch } from "@kasse/db";
import { priceValues, toPrice, validatePrices, type Price } from "./prices";
import {
  price,
  priceList,
  priceListRule,
  type PriceListCreate,
  type PriceListFilters,
  type PriceListPriceCreate,
  type PriceListPricesBatch,
  type PriceListRow,
  type PriceListUpdate,
} from "./schema";

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
 * `active` and within their dates.
 * @example
 * await createPriceListService(db).create({ title: "VIP", type: "override", rules: [{ rule_type: "customer_group_id", value: "cusgroup_1" }] });
 */
export function createPriceListService(db: Db) {
  // Built on first use: services are also built over step transactions, which never ask it.
  let nextChangeStatement: ReturnType<typeof prepareNextChange> | undefined;
  const lists = liveRecords(db, priceList, "Price list", {
    title: priceList.title,
    status: priceList.status,
    type: priceList.type,
    starts_at: priceList.starts_at,
    ends_at: priceList.ends_at,
  });
  const service = {
    async create(input: PriceListCreate): Promise<PriceList> {
      checkDates(input.starts_at, input.ends_at);
      validatePrices(input.prices ?? []);
      const id = generateId("plist");
      await transaction(db, async (inner) => {
        await inner.insert(priceList).values({
          id,
          title: input.title,
          description: input.description ?? "",
          type: input.type,
          status: input.status ?? "draft",
          starts_at: toDate(input.starts_at),
          ends_at: toDate(input.ends_at),
        });
        await setRules(inner, id, input.rules ?? []);
        await insertPrices(inner, id, input.prices ?? []);
      });
      return service.retrieve(id);
    },

    retrieve: async (id: string): Promise<PriceList> => (await withRelations(db, [await lists.retrieve(id)]))[0]!,

    /** The variants the live lists among `ids` price, each once. */
    async variantIds(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectDistinct({ variant_id: price.variant_id })
        .from(price)
        .innerJoin(priceList, eq(priceList.id, price.price_list_id))
        .where(and(inArray(price.price_list_id, ids), lists.live));
      return rows.map((r) => r.variant_id);
    },

    /** A page of a price list's prices (404 for an unknown list), ordered by variant, currency and tier. */
    async listPrices(
      id: string,
      filters: { id?: string[]; variant_id?: string[]; currency_code?: string[] },
      page: ListPaging,
    ): Promise<{ items: Price[]; count: number }> {
      if (!(await lists.find(id))) throw lists.notFound(id);
      const where = and(
        eq(price.price_list_id, id),
        filters.id?.length ? inArray(price.id, filters.id) : undefined,
        filters.variant_id?.length ? inArray(price.variant_id, filters.variant_id) : undefined,
        filters.currency_code?.length
          ? inArray(
              price.currency_code,
              filters.currency_code.map((c) => c.toLowerCase()),
            )
          : undefined,
      );
      const columns = {
        created_at: price.created_at,
        updated_at: price.updated_at,
        amount: price.amount,
        currency_code: price.currency_code,
        variant_id: price.variant_id,
      };
      const order = page.order
        ? orderBy(page.order, columns, price.id)
        : [asc(price.variant_id), asc(price.currency_code), asc(price.min_quantity), asc(price.id)];
      const { items, count } = await listPage(db, price, where, order, page);
      return { items: items.map(toPrice), count };
    },

    async list(filters: PriceListFilters, page: ListPaging): Promise<{ items: PriceList[]; count: number }> {
      const { items, count } = await lists.list(conditions(filters), page);
      return { items: await withRelations(db, items), count };
    },

    /** Updates fields; `rules` and `prices`, when given, replace the list's current ones. */
    async update(id: string, input: PriceListUpdate): Promise<PriceList> {
      const existing = await service.retrieve(id);
      const startsAt = input.starts_at === undefined ? existing.starts_at : toDate(input.starts_at);
      const endsAt = input.ends_at === undefined ? existing.ends_at : toDate(input.ends_at);
      checkDates(startsAt, endsAt);
      validatePrices(input.prices ?? []);
      const { rules, prices, starts_at, ends_at, ...fields } = input;
      await transaction(db, async (inner) => {
        const set = {
          ...fields,
          ...(starts_at !== undefined ? { starts_at: startsAt } : {}),
          ...(ends_at !== undefined ? { ends_at: endsAt } : {}),
          updated_at: new Date(),
        };
        await inner.update(priceList).set(set).where(eq(priceList.id, id));
        if (rules) {
          await inner.delete(priceListRule).where(eq(priceListRule.price_list_id, id));
          await setRules(inner, id, rules);
        }
        if (prices) {
          await inner.delete(price).where(eq(price.price_list_id, id));
          await insertPrices(inner, id, prices);
        }
      });
      return service.retrieve(id);
    },

    /** Soft-deletes the list; its prices and rules go with it. */
    async delete(id: string): Promise<void> {
      await transaction(db, async (inner) => {
        await liveRecords(inner, priceList, "Price list").softDelete(id);
        await inner.delete(price).where(eq(price.price_list_id, id));
        await inner.delete(priceListRule).where(eq(priceListRule.price_list_id, id));
      });
    },

    /** Creates, updates and deletes the list's prices in one transaction: all or nothing. */
    async batchPrices(id: string, batch: PriceListPricesBatch): Promise<PriceListBatchResult> {
      await service.retrieve(id);
      const creates = batch.create ?? [];
      const updates = batch.update ?? [];
      const deletes = [...new Set(batch.delete ?? [])];
      validatePrices(creates);
      return transaction(db, async (inner) => {
        const touched = [...new Set([...updates.map((u) => u.id), ...deletes])];
        const owned = touched.length
          ? await inner
              .select()
              .from(price)
              .where(and(inArray(price.id, touched), eq(price.price_list_id, id)))
              .for("update")
          : [];
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
          const [row] = await inner
            .update(price)
            .set({
              ...priceValues(merged),
              variant_id: change.variant_id ?? current.variant_id,
              updated_at: new Date(),
            })
            .where(eq(price.id, change.id))
            .returning();
          updated.push(toPrice(row!));
        }
        if (deletes.length) await inner.delete(price).where(inArray(price.id, deletes));
        const created = await insertPrices(inner, id, creates);
        await inner.update(priceList).set({ updated_at: new Date() }).where(eq(priceList.id, id));
        return { created, updated, deleted: { ids: deletes, object: "price" as const, deleted: true as const } };
      });
    },

    /**
     * When the next active price list starts or ends (null: none will): prices read before that
     * moment may change at it without any write, so a cached catalog answer expires there.
     */
    async nextChange(): Promise<Date | null> {
      const [row] = await (nextChangeStatement ??= prepareNextChange(db)).execute();
      return toDate(row?.at ?? null);
    },

    /** Removes one price from the list. */
    async deletePrice(id: string, priceId: string): Promise<void> {
      await service.retrieve(id);
      const removed = await db
        .delete(price)
        .where(and(eq(price.id, priceId), eq(price.price_list_id, id)))
        .returning({ id: price.id });
      if (removed.length === 0) throw errors.notFound(`Price with id: ${priceId} was not found in price list ${id}`);
    },
  };
  return service;
}

export type PriceListService = ReturnType<typeof createPriceListService>;

/** The earliest future start or end among active price lists, as one prepared statement. */
function prepareNextChange(db: Db) {
  return db
    .select({
      at: sql<
        Date | string | null
      >`least(min(${priceList.starts_at}) filter (where ${priceList.starts_at} > now()), min(${priceList.ends_at}) filter (where ${priceList.ends_at} > now()))`,
    })
    .from(priceList)
    .where(and(isNull(priceList.deleted_at), eq(priceList.status, "active")))
    .prepare("price_list_next_change");
}

function conditions(filters: PriceListFilters): SQL[] {
  const out = anyOf(filters, { id: priceList.id, status: priceList.status, type: priceList.type });
  out.push(...textSearch(filters.q, [priceList.title, priceList.description]));
  return out;
}

function toDate(value: string | Date | null | undefined): Date | null {
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

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
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const key = `${p.attribute}\u0000${p.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function setRules(tx: Db, listId: string, rules: RulesInput): Promise<void> {
  const pairs = rulePairs(rules);
  if (pairs.length)
    await tx
      .insert(priceListRule)
      .values(pairs.map((p) => ({ id: generateId("plrule"), price_list_id: listId, ...p })));
}

async function insertPrices(tx: Db, listId: string, prices: PriceListPriceCreate[]): Promise<Price[]> {
  if (prices.length === 0) return [];
  const rows = await tx
    .insert(price)
    .values(
      prices.map((p) => ({
        id: generateId("price"),
        variant_id: p.variant_id,
        price_list_id: listId,
        ...priceValues(p),
      })),
    )
    .returning();
  return rows.map(toPrice);
}

/** Rules and prices of a page of lists: one query per relation. */
async function withRelations(tx: Db, rows: PriceListRow[]): Promise<PriceList[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [rules, prices] = await Promise.all([
    tx
      .select()
      .from(priceListRule)
      .where(inArray(priceListRule.price_list_id, ids))
      .orderBy(asc(priceListRule.attribute), asc(priceListRule.value)),
    tx
      .select()
      .from(price)
      .where(inArray(price.price_list_id, ids))
      .orderBy(asc(price.variant_id), asc(price.currency_code), asc(price.min_quantity), asc(price.id)),
  ]);
  return rows.map(({ deleted_at: _d, ...row }) => {
    const ruleMap: Record<string, string[]> = {};
    for (const r of rules) if (r.price_list_id === row.id) (ruleMap[r.attribute] ??= []).push(r.value);
    return { ...row, rules: ruleMap, prices: prices.filter((p) => p.price_list_id === row.id).map(toPrice) };
  });
}
