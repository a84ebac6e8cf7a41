import { and, eq, sql, type SQL } from "drizzle-orm";
import {
  db,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import {
  salesChannelStockLocation,
  stockLocation,
  stockLocationAddress,
  stockLocationProviderExclusion as exclusions,
} from "./schema";
import type { StockLocationFilters } from "./shapes";

// The stock-location module's SQL: the only file of the module that imports drizzle and its tables.

const locations = liveRecords(stockLocation, "Stock location", { name: stockLocation.name });
const links = salesChannelStockLocation;

type AddressInsert = Omit<typeof stockLocationAddress.$inferInsert, "created_at" | "updated_at" | "deleted_at">;

/** The filters of a location list as conditions. */
function conditions(filters: StockLocationFilters): SQL[] {
  const out = inFilters(filters, { id: stockLocation.id, name: stockLocation.name });
  if (filters.sales_channel_id?.length)
    out.push(
      sql`exists (select 1 from ${links} where ${links.stock_location_id} = ${stockLocation.id} and ${inList(links.sales_channel_id, filters.sales_channel_id)})`,
    );
  out.push(...textSearch(filters.q, [stockLocation.name]));
  return out;
}

/** Named statements on the stock-location tables, run on the current handle. */
export const stockLocationQueries = {
  insert: locations.insert,
  retrieve: locations.retrieve,
  softDelete: locations.softDelete,
  existing: locations.existing,
  list: locations.listBy(conditions),
  update: locations.update,
  addresses: rowsOf(stockLocationAddress, stockLocationAddress.id),
  /** The channel links of the locations, oldest first. */
  links: rowsOf(links, links.stock_location_id, { order: [links.created_at, links.sales_channel_id] }),
  insertAddress: statement((v: Placeholders<Required<AddressInsert>>) => db.insert(stockLocationAddress).values(v)),
  /** Soft-deletes the address `id`. */
  deleteAddress: statement((v: Placeholders<{ id: string; deleted_at: Date }>) =>
    db
      .update(stockLocationAddress)
      .set({ deleted_at: v.deleted_at, updated_at: v.deleted_at })
      .where(eq(stockLocationAddress.id, v.id)),
  ),
  /** Links locations to channels; a link that exists stays as it is. */
  link: insertRows(links, { onConflictDoNothing: true }),
  unlink: statement((v: Placeholders<{ id: string; channels: string[] }>) =>
    db.delete(links).where(and(eq(links.stock_location_id, v.id), inList(links.sales_channel_id, v.channels))),
  ),
  /** Removes every channel link of the location. */
  unlinkAll: statement((v: Placeholders<{ id: string }>) => db.delete(links).where(eq(links.stock_location_id, v.id))),
  /** The providers the locations do not use. */
  exclusions: rowsOf(exclusions, exclusions.stock_location_id),
  /** Turns providers off for locations; one already off stays as it is. */
  exclude: insertRows(exclusions, { onConflictDoNothing: true }),
  /** Turns the providers on again for the location. */
  include: statement((v: Placeholders<{ id: string; providers: string[] }>) =>
    db
      .delete(exclusions)
      .where(and(eq(exclusions.stock_location_id, v.id), inList(exclusions.provider_id, v.providers))),
  ),
  /** The live locations serving any of the channels `ids`, oldest first: where a cart's lines are available. */
  locationsOfChannels: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .selectDistinct({ id: stockLocation.id, created_at: stockLocation.created_at })
      .from(links)
      .innerJoin(stockLocation, eq(stockLocation.id, links.stock_location_id))
      .where(and(inList(links.sales_channel_id, v.ids), locations.live))
      .orderBy(stockLocation.created_at, stockLocation.id),
  ),
  /** The channels any of the live locations `ids` serve. */
  channelsOfLocations: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .selectDistinct({ id: links.sales_channel_id })
      .from(links)
      .innerJoin(stockLocation, eq(stockLocation.id, links.stock_location_id))
      .where(and(inList(links.stock_location_id, v.ids), locations.live)),
  ),
};
