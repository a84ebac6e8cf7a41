import { and, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import {
  db,
  first,
  inList,
  insertRows,
  liveRecords,
  rangeConditions,
  statement,
  type ListPaging,
  type Placeholders,
  type RangeFilter,
  textSearch,
} from "@kasse/db";
import {
  orderClaimExchange,
  orderReturnChange,
  orderVersionChange,
  type ClaimExchangeKind,
  type OrderChangeStatus,
} from "../schema";

const records = liveRecords(orderClaimExchange, "Order change", {
  created_at: orderClaimExchange.created_at,
  updated_at: orderClaimExchange.updated_at,
});

/** Filters of a list of exchanges or claims (Medusa's list query). */
export interface ClaimExchangeFilters {
  id?: string[];
  order_id?: string[];
  /** Their order changes' statuses. */
  status?: OrderChangeStatus[];
  /** Part of the id or the order's id. */
  q?: string;
  created_at?: RangeFilter<Date>;
  updated_at?: RangeFilter<Date>;
}

/** The statements of exchanges and claims (`order_claim_exchange`). */
export const claimExchangeQueries = {
  insert: records.insert,
  find: records.find,
  lock: records.lock,
  update: records.update,
  remove: records.softDelete,
  /** The exchange or claim whose return is `return_id`, if any. */
  ofReturn: first(
    statement((v: Placeholders<{ return_id: string }>) =>
      db
        .select()
        .from(orderClaimExchange)
        .where(and(eq(orderClaimExchange.return_id, v.return_id), records.live)),
    ),
  ),
  /** The order changes of order `order_id`'s canceled exchanges and claims. */
  canceledOfOrder: statement((v: Placeholders<{ order_id: string }>) =>
    db
      .select({ change_id: orderClaimExchange.change_id })
      .from(orderClaimExchange)
      .where(and(eq(orderClaimExchange.order_id, v.order_id), isNotNull(orderClaimExchange.canceled_at), records.live)),
  ),
  /** The exchange or claim whose order change is `change_id`, if any. */
  ofChange: first(
    statement((v: Placeholders<{ change_id: string }>) =>
      db
        .select()
        .from(orderClaimExchange)
        .where(and(eq(orderClaimExchange.change_id, v.change_id), records.live)),
    ),
  ),
  /** A page of exchanges or claims. */
  list: (kind: ClaimExchangeKind, filters: ClaimExchangeFilters, page: ListPaging) =>
    records.list(
      [
        eq(orderClaimExchange.kind, kind),
        filters.id ? inList(orderClaimExchange.id, filters.id) : undefined,
        filters.order_id ? inList(orderClaimExchange.order_id, filters.order_id) : undefined,
        // A canceled exchange or claim is `canceled` whatever its confirmed change says.
        filters.status
          ? or(
              and(
                inArray(
                  orderClaimExchange.change_id,
                  db
                    .select({ id: orderVersionChange.id })
                    .from(orderVersionChange)
                    .where(inList(orderVersionChange.status, filters.status)),
                ),
                isNull(orderClaimExchange.canceled_at),
              ),
              filters.status.includes("canceled") ? isNotNull(orderClaimExchange.canceled_at) : undefined,
            )
          : undefined,
        ...textSearch(filters.q, [orderClaimExchange.id, orderClaimExchange.order_id]),
        ...rangeConditions(orderClaimExchange.created_at, filters.created_at),
        ...rangeConditions(orderClaimExchange.updated_at, filters.updated_at),
      ],
      page,
    ),
  /** Puts back return requests a confirmation deleted (the compensation of that confirmation). */
  restoreReturnChanges: insertRows(orderReturnChange),
};
