import { and, eq, type SQL } from "drizzle-orm";
import { db, first, inFilters, inList, liveRecords, statement, textSearch, type Placeholders } from "@kasse/db";
import { salesChannel } from "./schema";
import type { SalesChannelFilters } from "./shapes";

// The sales-channel module's SQL: the only file of the module that imports drizzle and its tables.

const channels = liveRecords(salesChannel, "Sales channel", { name: salesChannel.name });

/** The filters of a channel list as conditions. */
const conditions = (filters: SalesChannelFilters): SQL[] => [
  ...inFilters(filters, { id: salesChannel.id, name: salesChannel.name }),
  ...(filters.is_disabled === undefined ? [] : [eq(salesChannel.is_disabled, filters.is_disabled)]),
  ...textSearch(filters.q, [salesChannel.name, salesChannel.description]),
];

/** Named statements on the `sales_channel` table, run on the current handle. */
export const salesChannelQueries = {
  ...channels,
  list: channels.listBy(conditions),
  /** The ids among `ids` of live channels that are not disabled, in no particular order. */
  enabledAmong: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: salesChannel.id })
      .from(salesChannel)
      .where(and(inList(salesChannel.id, v.ids), eq(salesChannel.is_disabled, false), channels.live)),
  ),
  /** The live default channel, if there is one. */
  defaultChannel: first(
    statement(() =>
      db
        .select()
        .from(salesChannel)
        .where(and(eq(salesChannel.is_default, true), channels.live))
        .limit(1),
    ),
  ),
  /**
   * Creates the default channel unless one exists; undefined when another caller's insert won (the
   * unique index keeps one of two made at once).
   */
  insertDefault: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .insert(salesChannel)
        .values({ id: v.id, name: "Default Sales Channel", description: "Created by Kasse", is_default: true })
        .onConflictDoNothing()
        .returning(),
    ),
  ),
};
