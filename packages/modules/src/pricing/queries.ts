import { and, asc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  db,
  inFilters,
  inList,
  insertRows,
  listPage,
  liveRecords,
  orderBy,
  readRows,
  restoreRows,
  rowsOf,
  statement,
  textSearch,
  type ListPaging,
  type Placeholders,
  type RowSnapshot,
} from "@kasse/db";
import {
  price,
  priceList,
  priceListRule,
  pricePreference,
  type PriceListRow,
  type PricePreferenceRow,
  type PriceRow,
} from "./schema";
import type { PriceListFilters, PricePreferenceFilters } from "./shapes";

// The pricing module's SQL (prices, price lists, price preferences): the only file of the module
// that imports drizzle and its tables.

const lists = liveRecords(priceList, "Price list", {
  title: priceList.title,
  status: priceList.status,
  type: priceList.type,
  starts_at: priceList.starts_at,
  ends_at: priceList.ends_at,
});
const preferences = liveRecords(pricePreference, "Price preference", {
  attribute: pricePreference.attribute,
  value: pricePreference.value,
});

/** A price preference's columns but `deleted_at`: what the API shows. */
const preferenceColumns = {
  id: pricePreference.id,
  attribute: pricePreference.attribute,
  value: pricePreference.value,
  is_tax_inclusive: pricePreference.is_tax_inclusive,
  created_at: pricePreference.created_at,
  updated_at: pricePreference.updated_at,
};

/** A price candidate of a calculation: the price, its list's window and rules (null for a base price). */
export interface CandidateRow {
  price: PriceRow;
  list: Pick<PriceListRow, "id" | "type" | "status" | "starts_at" | "ends_at"> | null;
  rules: Array<{ attribute: string; value: string }> | null;
}

// A cart write prices its lines with these two.
const candidatePrices = statement((v: Placeholders<{ ids: string[]; currency: string }>) =>
  db
    .select({
      price,
      list: {
        id: priceList.id,
        type: priceList.type,
        status: priceList.status,
        starts_at: priceList.starts_at,
        ends_at: priceList.ends_at,
      },
      rules: sql<Array<{
        attribute: string;
        value: string;
      }> | null>`(select json_agg(json_build_object('attribute', r.attribute, 'value', r.value)) from price_list_rule r where r.price_list_id = ${price.price_list_id})`,
    })
    .from(price)
    .leftJoin(priceList, eq(priceList.id, price.price_list_id))
    .where(
      and(
        inList(price.variant_id, v.ids),
        eq(price.currency_code, v.currency),
        or(isNull(price.price_list_id), and(eq(priceList.status, "active"), isNull(priceList.deleted_at))),
      ),
    ),
);

// `region` null (no region) matches no row.
const preferencesFor = statement((v: Placeholders<{ currency: string; region: string | null }>) =>
  db
    .select()
    .from(pricePreference)
    .where(
      and(
        isNull(pricePreference.deleted_at),
        or(
          and(eq(pricePreference.attribute, "currency_code"), eq(pricePreference.value, v.currency)),
          and(eq(pricePreference.attribute, "region_id"), eq(pricePreference.value, v.region)),
        ),
      ),
    ),
);

const basePricesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(price)
    .where(and(inList(price.variant_id, v.ids), isNull(price.price_list_id)))
    .orderBy(asc(price.currency_code), asc(price.min_quantity), asc(price.id)),
);

const deleteBasePrices = statement((v: Placeholders<{ variant_id: string }>) =>
  db.delete(price).where(and(eq(price.variant_id, v.variant_id), isNull(price.price_list_id))),
);

const deletePricesOfVariants = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(price).where(inList(price.variant_id, v.ids)),
);

const insertPrices = insertRows<PriceRow[]>(price, { returning: true });
const insertRules = insertRows(priceListRule);

/** The base prices of `based` variants and every price of `removed` ones. */
function touched(based: string[], removed: string[]): SQL | undefined {
  return or(
    based.length ? and(inList(price.variant_id, based), isNull(price.price_list_id)) : undefined,
    removed.length ? inList(price.variant_id, removed) : undefined,
    sql`false`,
  );
}

const rulesOf = rowsOf(priceListRule, priceListRule.price_list_id, {
  order: [asc(priceListRule.attribute), asc(priceListRule.value)],
});

const pricesOfLists = rowsOf(price, price.price_list_id, {
  order: [asc(price.variant_id), asc(price.currency_code), asc(price.min_quantity), asc(price.id)],
});

const variantsOfLists = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .selectDistinct({ variant_id: price.variant_id })
    .from(price)
    .innerJoin(priceList, eq(priceList.id, price.price_list_id))
    .where(and(inList(price.price_list_id, v.ids), lists.live)),
);

const deleteRulesOf = statement((v: Placeholders<{ list_id: string }>) =>
  db.delete(priceListRule).where(eq(priceListRule.price_list_id, v.list_id)),
);

const deletePricesOf = statement((v: Placeholders<{ list_id: string }>) =>
  db.delete(price).where(eq(price.price_list_id, v.list_id)),
);

const lockListPrices = statement((v: Placeholders<{ list_id: string; ids: string[] }>) =>
  db
    .select()
    .from(price)
    .where(and(inList(price.id, v.ids), eq(price.price_list_id, v.list_id)))
    .for("update"),
);

const updatePrice = statement(
  (
    v: Placeholders<
      Pick<
        PriceRow,
        "id" | "variant_id" | "currency_code" | "amount" | "min_quantity" | "max_quantity" | "region_id"
      > & {
        updated_at: Date;
      }
    >,
  ) =>
    db
      .update(price)
      .set({
        variant_id: v.variant_id,
        currency_code: v.currency_code,
        amount: v.amount,
        min_quantity: v.min_quantity,
        max_quantity: v.max_quantity,
        region_id: v.region_id,
        updated_at: v.updated_at,
      })
      .where(eq(price.id, v.id))
      .returning(),
);

const deletePricesById = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(price).where(inList(price.id, v.ids)),
);

const touchList = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db.update(priceList).set({ updated_at: v.updated_at }).where(eq(priceList.id, v.id)),
);

const deleteListPrice = statement((v: Placeholders<{ list_id: string; id: string }>) =>
  db
    .delete(price)
    .where(and(eq(price.id, v.id), eq(price.price_list_id, v.list_id)))
    .returning({ id: price.id }),
);

// Every catalog read that is not cached asks it (the answer's expiry).
const nextChange = statement(() =>
  db
    .select({
      at: sql<
        Date | string | null
      >`least(min(${priceList.starts_at}) filter (where ${priceList.starts_at} > now()), min(${priceList.ends_at}) filter (where ${priceList.ends_at} > now()))`,
    })
    .from(priceList)
    .where(and(isNull(priceList.deleted_at), eq(priceList.status, "active"))),
);

const preferenceByKey = statement((v: Placeholders<{ attribute: PricePreferenceRow["attribute"]; value: string }>) =>
  db
    .select()
    .from(pricePreference)
    .where(
      and(
        eq(pricePreference.attribute, v.attribute),
        eq(pricePreference.value, v.value),
        isNull(pricePreference.deleted_at),
      ),
    ),
);

const setTaxInclusive = statement((v: Placeholders<{ id: string; is_tax_inclusive: boolean; updated_at: Date }>) =>
  db
    .update(pricePreference)
    .set({ is_tax_inclusive: v.is_tax_inclusive, updated_at: v.updated_at })
    .where(eq(pricePreference.id, v.id)),
);

const insertPreference = statement(
  (
    v: Placeholders<{
      id: string;
      attribute: PricePreferenceRow["attribute"];
      value: string;
      is_tax_inclusive: boolean;
    }>,
  ) =>
    db
      .insert(pricePreference)
      .values({ id: v.id, attribute: v.attribute, value: v.value, is_tax_inclusive: v.is_tax_inclusive })
      .returning(preferenceColumns),
);

const removePreference = statement((v: Placeholders<{ id: string }>) =>
  db.delete(pricePreference).where(eq(pricePreference.id, v.id)),
);

/** The filters of a price list list as conditions. */
function listConditions(filters: PriceListFilters): SQL[] {
  return [
    ...inFilters(filters, { id: priceList.id, status: priceList.status, type: priceList.type }),
    ...textSearch(filters.q, [priceList.title, priceList.description]),
  ];
}

/** The filters of a price preference list as conditions. */
function preferenceConditions(filters: PricePreferenceFilters): SQL[] {
  const { id, attribute, value } = pricePreference;
  return inFilters(filters, { id, attribute, value });
}

/** The columns a list's prices sort by (`order`); the id breaks ties. */
const priceColumns = {
  created_at: price.created_at,
  updated_at: price.updated_at,
  amount: price.amount,
  currency_code: price.currency_code,
  variant_id: price.variant_id,
};

/** A price row to insert: its id and values, before the timestamps. */
export type PriceInsert = Pick<
  PriceRow,
  "id" | "variant_id" | "price_list_id" | "currency_code" | "amount" | "min_quantity" | "max_quantity" | "region_id"
>;

/** Named statements on the pricing tables, run on the current handle. */
export const pricingQueries = {
  // --- prices
  /** The prices in `currency` of the variants `ids`, base and active lists', with each list's window and rules. */
  candidatePrices: (ids: string[], currency: string): Promise<CandidateRow[]> => candidatePrices({ ids, currency }),
  /** The live preferences of the currency and of the region (none for a null region). */
  preferencesFor: (currency: string, region: string | null): Promise<PricePreferenceRow[]> =>
    preferencesFor({ currency, region }),
  /** The base prices of the variants `ids`, by currency and tier. */
  basePricesOf: (ids: string[]): Promise<PriceRow[]> => basePricesOf({ ids }),
  /** Deletes the variant's base prices. */
  deleteBasePrices: async (variantId: string): Promise<void> => {
    await deleteBasePrices({ variant_id: variantId });
  },
  /** Inserts prices in one statement and answers them. */
  insertPrices: (rows: PriceInsert[]): Promise<PriceRow[]> => insertPrices(rows),
  /** Deletes every price (base and list) of the variants `ids`. */
  deletePricesOfVariants: async (ids: string[]): Promise<void> => {
    await deletePricesOfVariants({ ids });
  },
  /** The base prices of `based` variants and every price of `removed` ones, to put back with {@link restorePrices}. */
  readTouched: (based: string[], removed: string[]): Promise<Array<RowSnapshot<PriceRow>>> =>
    readRows(db, price, touched(based, removed)),
  /** Deletes what {@link readTouched} read and writes its rows back. */
  async restorePrices(based: string[], removed: string[], rows: Array<RowSnapshot<PriceRow>>): Promise<void> {
    await db.delete(price).where(touched(based, removed));
    await restoreRows(db, price, rows);
  },

  // --- price lists
  notFoundList: lists.notFound,
  insertList: lists.insert,
  retrieveList: lists.retrieve,
  findList: lists.find,
  softDeleteList: lists.softDelete,
  lists: lists.listBy(listConditions),
  /** Sets `fields` on the list (its `updated_at` among them). */
  updateList: async (id: string, fields: Partial<typeof priceList.$inferInsert>): Promise<void> => {
    await db.update(priceList).set(fields).where(eq(priceList.id, id));
  },
  /** Inserts rules (their ids given). */
  insertRules: async (rows: Array<{ id: string; price_list_id: string; attribute: string; value: string }>) => {
    await insertRules(rows);
  },
  rulesOf,
  pricesOfLists: (ids: string[]): Promise<PriceRow[]> => pricesOfLists(ids),
  /** The variants the live lists among `ids` price, each once. */
  variantsOfLists: async (ids: string[]): Promise<string[]> =>
    (await variantsOfLists({ ids })).map((r) => r.variant_id),
  deleteRulesOf: async (listId: string): Promise<void> => {
    await deleteRulesOf({ list_id: listId });
  },
  deletePricesOf: async (listId: string): Promise<void> => {
    await deletePricesOf({ list_id: listId });
  },
  /** A page of the list's prices matching the filters, in `page.order` or by variant, currency and tier. */
  listPrices(
    listId: string,
    filters: { id?: string[]; variant_id?: string[]; currency_code?: string[] },
    page: ListPaging,
  ): Promise<{ items: PriceRow[]; count: number }> {
    const where = and(
      eq(price.price_list_id, listId),
      filters.id?.length ? inList(price.id, filters.id) : undefined,
      filters.variant_id?.length ? inList(price.variant_id, filters.variant_id) : undefined,
      filters.currency_code?.length
        ? inList(
            price.currency_code,
            filters.currency_code.map((c) => c.toLowerCase()),
          )
        : undefined,
    );
    const order = page.order
      ? orderBy(page.order, priceColumns, price.id)
      : [asc(price.variant_id), asc(price.currency_code), asc(price.min_quantity), asc(price.id)];
    return listPage(price, where, order, page);
  },
  /** The list's prices among `ids`, locked for the rest of the transaction. */
  lockListPrices: (listId: string, ids: string[]): Promise<PriceRow[]> => lockListPrices({ list_id: listId, ids }),
  /** Writes a price's values and answers it. */
  updatePrice: async (row: PriceInsert): Promise<PriceRow | undefined> => {
    const { price_list_id: _list, ...values } = row;
    return (await updatePrice({ ...values, updated_at: new Date() }))[0];
  },
  deletePrices: async (ids: string[]): Promise<void> => {
    await deletePricesById({ ids });
  },
  /** Sets the list's `updated_at` to now. */
  touchList: async (id: string): Promise<void> => {
    await touchList({ id, updated_at: new Date() });
  },
  /** Deletes the list's price `id`; whether there was one. */
  deleteListPrice: async (listId: string, id: string): Promise<boolean> =>
    (await deleteListPrice({ list_id: listId, id })).length > 0,
  /** The earliest future start or end among active price lists. */
  nextChange: async (): Promise<Date | string | null> => (await nextChange())[0]?.at ?? null,

  // --- price preferences
  retrievePreference: preferences.retrieve,
  softDeletePreference: preferences.softDelete,
  preferences: preferences.listBy(preferenceConditions),
  /** Inserts a preference and answers it as the API shows it. */
  insertPreference: async (row: {
    id: string;
    attribute: PricePreferenceRow["attribute"];
    value: string;
    is_tax_inclusive: boolean;
  }) => (await insertPreference(row))[0]!,
  /** Sets `fields` on the preference and answers it as the API shows it. */
  updatePreference: async (id: string, fields: Partial<typeof pricePreference.$inferInsert>) =>
    (await db.update(pricePreference).set(fields).where(eq(pricePreference.id, id)).returning(preferenceColumns))[0]!,
  /** The live preference of an attribute and value. */
  preferenceByKey: async (
    attribute: PricePreferenceRow["attribute"],
    value: string,
  ): Promise<PricePreferenceRow | undefined> => (await preferenceByKey({ attribute, value }))[0],
  setTaxInclusive: async (id: string, isTaxInclusive: boolean): Promise<void> => {
    await setTaxInclusive({ id, is_tax_inclusive: isTaxInclusive, updated_at: new Date() });
  },
  removePreference: async (id: string): Promise<void> => {
    await removePreference({ id });
  },
};
