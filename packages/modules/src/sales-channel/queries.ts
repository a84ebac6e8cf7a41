import { and, eq, type SQL } from "drizzle-orm";
import { generateId } from "@kasse/core";
import { db, inFilters, inList, liveRecords, statement, textSearch, type Placeholders } from "@kasse/db";
import { salesChannel, type SalesChannelRow } from "./schema";
import type { SalesChannelFilters } from "./shapes";

// The sales-channel module's SQL: the only file of the module that imports drizzle and its tables.

const channels = liveRecords(salesChannel, "Sales channel", { name: salesChannel.name });

const liveDefault = statement(() =>
  db
    .select()
    .from(salesChannel)
    .where(and(eq(salesChannel.is_default, true), channels.live))
    .limit(1),
);

// Two callers creating the default at once: the unique index keeps one, the other inserts nothing.
const insertDefault = statement((v: Placeholders<{ id: string }>) =>
  db
    .insert(salesChannel)
    .values({ id: v.id, name: "Default Sales Channel", description: "Created by Kasse", is_default: true })
    .onConflictDoNothing()
    .returning(),
);

const enabledAmong = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: salesChannel.id })
    .from(salesChannel)
    .where(and(inList(salesChannel.id, v.ids), eq(salesChannel.is_disabled, false), channels.live)),
);

/** The filters of a channel list as conditions. */
function conditions(filters: SalesChannelFilters): SQL[] {
  const out = inFilters(filters, { id: salesChannel.id, name: salesChannel.name });
  if (filters.is_disabled !== undefined) out.push(eq(salesChannel.is_disabled, filters.is_disabled));
  out.push(...textSearch(filters.q, [salesChannel.name, salesChannel.description]));
  return out;
}

/** Named statements on the `sales_channel` table, run on the current handle. */
export const salesChannelQueries = {
  ...channels,
  list: channels.listBy(conditions),
  /** The ids among `ids` of live channels that are not disabled, in no particular order. */
  enabledAmong: async (ids: string[]): Promise<string[]> => (await enabledAmong({ ids })).map((r) => r.id),
  /** The live default channel, if there is one. */
  defaultChannel: async (): Promise<SalesChannelRow | undefined> => (await liveDefault())[0],
  /** Creates the default channel unless one exists; undefined when another caller's insert won. */
  insertDefault: async (): Promise<SalesChannelRow | undefined> => (await insertDefault({ id: generateId("sc") }))[0],
};
