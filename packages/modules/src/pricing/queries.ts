import { and, asc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  db,
  first,
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
import { price, priceList, priceListRule, pricePreference, type PricePreferenceRow, type PriceRow } from "./schema";
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

/** The base prices of `based` variants and every price of `removed` ones. */
function touched(based: string[], removed: string[]): SQL | undefined {
  return or(
    based.length ? and(inList(price.variant_id, based), isNull(price.price_list_id)) : undefined,
    removed.length ? inList(price.variant_id, removed) : undefined,
    sql`false`,
  );
}

/** The filters of a price list list as conditions. */
const listConditions = (filters: PriceListFilters): SQL[] => [
  ...inFilters(filters, { id: priceList.id, status: priceList.status, type: priceList.type }),
  ...textSearch(filters.q, [priceList.title, priceList.description]),
];

/** The filters of a price preference list as conditions. */
const preferenceConditions = (filters: PricePreferenceFilters): SQL[] =>
  inFilters(filters, { id: pricePreference.id, attribute: pricePreference.attribute, value: pricePreference.value });

/** The columns a list's prices sort by (`order`); the id breaks ties. */
const priceColumns = {
  created_at: price.created_at,
  updated_at: price.updated_at,
  amount: price.amount,
  currency_code: price.currency_code,
  variant_id: price.variant_id,
};

/** A list's prices by variant, currency and tier (the id breaks ties). */
const LIST_PRICE_ORDER = [asc(price.variant_id), asc(price.currency_code), asc(price.min_quantity), asc(price.id)];

/** A price's values as a write sets them. */
type PriceValues = Pick<
  PriceRow,
  "id" | "variant_id" | "currency_code" | "amount" | "min_quantity" | "max_quantity" | "region_id"
>;

/** Named statements on the pricing tables, run on the current handle. */
export const pricingQueries = {
  // --- prices (a cart write prices its lines with the first two)
  /** The prices in `currency` of the variants `ids`, base and active lists', with each list's window and rules. */
  candidatePrices: statement((v: Placeholders<{ ids: string[]; currency: string }>) =>
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
  ),
  /** The live preferences of the currency and of the region (a null region matches none). */
  preferencesFor: statement((v: Placeholders<{ currency: string; region: string | null }>) =>
    db
      .select()
      .from(pricePreference)
      .where(
        and(
          preferences.live,
          or(
            and(eq(pricePreference.attribute, "currency_code"), eq(pricePreference.value, v.currency)),
            and(eq(pricePreference.attribute, "region_id"), eq(pricePreference.value, v.region)),
          ),
        ),
      ),
  ),
  /** The base prices of the variants `ids`, by currency and tier. */
  basePricesOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select()
      .from(price)
      .where(and(inList(price.variant_id, v.ids), isNull(price.price_list_id)))
      .orderBy(asc(price.currency_code), asc(price.min_quantity), asc(price.id)),
  ),
  /** Deletes the variant's base prices. */
  deleteBasePrices: statement((v: Placeholders<{ variant_id: string }>) =>
    db.delete(price).where(and(eq(price.variant_id, v.variant_id), isNull(price.price_list_id))),
  ),
  /** Inserts prices in one statement and answers them. */
  insertPrices: insertRows<PriceRow[]>(price, { returning: true }),
  /** Deletes every price (base and list) of the variants `ids`. */
  deletePricesOfVariants: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(price).where(inList(price.variant_id, v.ids)),
  ),
  /** The base prices of `based` variants and every price of `removed` ones, to put back with {@link restorePrices}. */
  readTouched: (based: string[], removed: string[]): Promise<Array<RowSnapshot<PriceRow>>> =>
    readRows(db, price, touched(based, removed)),
  /** Deletes what {@link readTouched} read and writes its rows back. */
  async restorePrices(based: string[], removed: string[], rows: Array<RowSnapshot<PriceRow>>): Promise<void> {
    await db.delete(price).where(touched(based, removed));
    await restoreRows(db, price, rows);
  },

  // --- price lists
  lists: { ...lists, list: lists.listBy(listConditions) },
  /** Inserts rules (their ids given). */
  insertRules: insertRows(priceListRule),
  /** The rules of the lists `ids`, by attribute and value. */
  rulesOf: rowsOf(priceListRule, priceListRule.price_list_id, {
    order: [asc(priceListRule.attribute), asc(priceListRule.value)],
  }),
  /** The prices of the lists `ids`, by variant, currency and tier. */
  pricesOfLists: rowsOf(price, price.price_list_id, {
    order: LIST_PRICE_ORDER,
  }),
  /** The variants the live lists among `ids` price, each once. */
  variantsOfLists: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .selectDistinct({ variant_id: price.variant_id })
      .from(price)
      .innerJoin(priceList, eq(priceList.id, price.price_list_id))
      .where(and(inList(price.price_list_id, v.ids), lists.live)),
  ),
  /** Deletes the list's rules. */
  deleteRulesOf: statement((v: Placeholders<{ list_id: string }>) =>
    db.delete(priceListRule).where(eq(priceListRule.price_list_id, v.list_id)),
  ),
  /** Deletes the list's prices. */
  deletePricesOf: statement((v: Placeholders<{ list_id: string }>) =>
    db.delete(price).where(eq(price.price_list_id, v.list_id)),
  ),
  /** A page of the list's prices matching the filters, in `page.order` or by variant, currency and tier. */
  listPrices(
    listId: string,
    filters: { id?: string[]; variant_id?: string[]; currency_code?: string[] },
    page: ListPaging,
  ): Promise<{ items: PriceRow[]; count: number }> {
    const where = and(
      eq(price.price_list_id, listId),
      ...inFilters(filters, { id: price.id, variant_id: price.variant_id, currency_code: price.currency_code }, [
        "currency_code",
      ]),
    );
    const order = page.order ? orderBy(page.order, priceColumns, price.id) : LIST_PRICE_ORDER;
    return listPage(price, where, order, page);
  },
  /** The list's prices among `ids`, locked for the rest of the transaction. */
  lockListPrices: statement((v: Placeholders<{ list_id: string; ids: string[] }>) =>
    db
      .select()
      .from(price)
      .where(and(inList(price.id, v.ids), eq(price.price_list_id, v.list_id)))
      .for("update"),
  ),
  /** Writes a price's values and answers it. */
  updatePrice: first(
    statement(({ id, ...set }: Placeholders<PriceValues & { updated_at: Date }>) =>
      db.update(price).set(set).where(eq(price.id, id)).returning(),
    ),
  ),
  /** Deletes the prices `ids`. */
  deletePrices: statement((v: Placeholders<{ ids: string[] }>) => db.delete(price).where(inList(price.id, v.ids))),
  /** Sets the list's `updated_at`. */
  touchList: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db.update(priceList).set({ updated_at: v.updated_at }).where(eq(priceList.id, v.id)),
  ),
  /** Deletes the list's price `id`, answering its id when there was one. */
  deleteListPrice: first(
    statement((v: Placeholders<{ list_id: string; id: string }>) =>
      db
        .delete(price)
        .where(and(eq(price.id, v.id), eq(price.price_list_id, v.list_id)))
        .returning({ id: price.id }),
    ),
  ),
  /** The earliest future start or end among active price lists (every uncached catalog read asks it: the answer's expiry). */
  nextChange: first(
    statement(() =>
      db
        .select({
          at: sql<
            Date | string | null
          >`least(min(${priceList.starts_at}) filter (where ${priceList.starts_at} > now()), min(${priceList.ends_at}) filter (where ${priceList.ends_at} > now()))`,
        })
        .from(priceList)
        .where(and(lists.live, eq(priceList.status, "active"))),
    ),
  ),

  // --- price preferences
  preferences: { ...preferences, list: preferences.listBy(preferenceConditions) },
  /** The live preference of an attribute and value. */
  preferenceByKey: first(
    statement((v: Placeholders<{ attribute: PricePreferenceRow["attribute"]; value: string }>) =>
      db
        .select()
        .from(pricePreference)
        .where(and(eq(pricePreference.attribute, v.attribute), eq(pricePreference.value, v.value), preferences.live)),
    ),
  ),
  /** Sets the preference's flag. */
  setTaxInclusive: statement((v: Placeholders<{ id: string; is_tax_inclusive: boolean; updated_at: Date }>) =>
    db
      .update(pricePreference)
      .set({ is_tax_inclusive: v.is_tax_inclusive, updated_at: v.updated_at })
      .where(eq(pricePreference.id, v.id)),
  ),
  /** Deletes the preference (a created one undone). */
  removePreference: statement((v: Placeholders<{ id: string }>) =>
    db.delete(pricePreference).where(eq(pricePreference.id, v.id)),
  ),
};
