import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { generateId } from "@kasse/core";
import {
  builtOnce,
  idList,
  inParam,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  textSearch,
  sqlList,
} from "@kasse/db";
import {
  salesChannelStockLocation,
  stockLocation,
  stockLocationAddress,
  type StockLocationAddressInput,
  type StockLocationAddressRow,
  type StockLocationCreate,
  type StockLocationFilters,
  type StockLocationRow,
  type StockLocationSalesChannels,
  type StockLocationUpdate,
} from "./schema";

/** A location as the API shows it; `sales_channel_ids` is turned into `sales_channels` by the route. */
export type StockLocation = Omit<StockLocationRow, "deleted_at"> & {
  address: Omit<StockLocationAddressRow, "deleted_at" | "created_at" | "updated_at"> | null;
  sales_channel_ids: string[];
};

// Where a cart's lines are available (each line added, and checkout): built once.
const locationsOfChannels = builtOnce<Array<{ id: string; created_at: Date }>, { ids: string }>((db) =>
  db
    .selectDistinct({ id: stockLocation.id, created_at: stockLocation.created_at })
    .from(salesChannelStockLocation)
    .innerJoin(stockLocation, eq(stockLocation.id, salesChannelStockLocation.stock_location_id))
    .where(and(inParam(salesChannelStockLocation.sales_channel_id, "ids"), isNull(stockLocation.deleted_at)))
    .orderBy(stockLocation.created_at, stockLocation.id),
);

/**
 * Stock locations: CRUD with an address, and the sales channels each location serves.
 * @example
 * const locations = createStockLocationService(db);
 * const warehouse = await locations.create({ name: "Berlin", address: { address_1: "Hauptstr. 1", country_code: "de" } });
 */
export function createStockLocationService(db: Db) {
  const locations = liveRecords(db, stockLocation, "Stock location", { name: stockLocation.name });
  /** Adds addresses and channel ids to a page of locations: one query per relation. */
  async function hydrate(rows: StockLocationRow[]): Promise<StockLocation[]> {
    if (rows.length === 0) return [];
    const addressIds = rows.map((r) => r.address_id).filter((id): id is string => id !== null);
    const [addresses, links] = await Promise.all([
      addressIds.length
        ? db.select().from(stockLocationAddress).where(inArray(stockLocationAddress.id, addressIds))
        : Promise.resolve([]),
      db
        .select()
        .from(salesChannelStockLocation)
        .where(
          inArray(
            salesChannelStockLocation.stock_location_id,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(salesChannelStockLocation.created_at, salesChannelStockLocation.sales_channel_id),
    ]);
    const addressById = new Map(addresses.map(({ deleted_at: _d, created_at: _c, updated_at: _u, ...a }) => [a.id, a]));
    return rows.map(({ deleted_at: _deleted, ...row }) => ({
      ...row,
      address: row.address_id ? (addressById.get(row.address_id) ?? null) : null,
      sales_channel_ids: links.filter((l) => l.stock_location_id === row.id).map((l) => l.sales_channel_id),
    }));
  }

  const service = {
    async create(input: StockLocationCreate): Promise<StockLocation> {
      return transaction(db, async (t) => {
        const address_id = input.address ? await insertAddress(t, input.address) : null;
        const [row] = await t
          .insert(stockLocation)
          .values({ id: generateId("sloc"), name: input.name, address_id, metadata: input.metadata ?? null })
          .returning();
        return createStockLocationService(t).retrieve(row!.id);
      });
    },

    retrieve: async (id: string): Promise<StockLocation> => (await hydrate([await locations.retrieve(id)]))[0]!,

    async list(filters: StockLocationFilters, page: ListPaging): Promise<{ items: StockLocation[]; count: number }> {
      const { items, count } = await locations.list(conditions(filters), page);
      return { items: await hydrate(items), count };
    },

    async update(id: string, input: StockLocationUpdate): Promise<StockLocation> {
      return transaction(db, async (t) => {
        const existing = await createStockLocationService(t).retrieve(id);
        const changes: Partial<StockLocationRow> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.metadata !== undefined) changes.metadata = input.metadata;
        if (input.address !== undefined) {
          // The address is owned by the location: replace it rather than share it.
          if (existing.address_id)
            await t
              .update(stockLocationAddress)
              .set({ deleted_at: new Date() })
              .where(eq(stockLocationAddress.id, existing.address_id));
          changes.address_id = input.address ? await insertAddress(t, input.address) : null;
        }
        if (Object.keys(changes).length) await t.update(stockLocation).set(changes).where(eq(stockLocation.id, id));
        return createStockLocationService(t).retrieve(id);
      });
    },

    /** Soft delete; the location's channel links go with it. */
    async delete(id: string): Promise<void> {
      await transaction(db, async (t) => {
        await liveRecords(t, stockLocation, "Stock location").softDelete(id);
        await t.delete(salesChannelStockLocation).where(eq(salesChannelStockLocation.stock_location_id, id));
      });
    },

    /** Links and unlinks sales channels (ids already checked by the caller); linking twice is a no-op. */
    async updateSalesChannels(id: string, input: StockLocationSalesChannels): Promise<StockLocation> {
      return transaction(db, async (t) => {
        await createStockLocationService(t).retrieve(id);
        const add = [...new Set(input.add ?? [])];
        if (add.length)
          await t
            .insert(salesChannelStockLocation)
            .values(add.map((sales_channel_id) => ({ sales_channel_id, stock_location_id: id })))
            .onConflictDoNothing();
        if (input.remove?.length) {
          await t
            .delete(salesChannelStockLocation)
            .where(
              and(
                eq(salesChannelStockLocation.stock_location_id, id),
                inArray(salesChannelStockLocation.sales_channel_id, input.remove),
              ),
            );
        }
        return createStockLocationService(t).retrieve(id);
      });
    },

    /** The live locations serving any of the given sales channels, oldest first. */
    async locationIdsForSalesChannels(salesChannelIds: string[]): Promise<string[]> {
      if (salesChannelIds.length === 0) return [];
      const rows = await locationsOfChannels(db, { ids: idList(salesChannelIds) });
      return rows.map((r) => r.id);
    },

    /** The sales channels any of the given live locations serve (the `location_id` filter of a channel list). */
    async salesChannelIdsOfLocations(locationIds: string[]): Promise<string[]> {
      if (locationIds.length === 0) return [];
      const rows = await db
        .selectDistinct({ id: salesChannelStockLocation.sales_channel_id })
        .from(salesChannelStockLocation)
        .innerJoin(stockLocation, eq(stockLocation.id, salesChannelStockLocation.stock_location_id))
        .where(and(inArray(salesChannelStockLocation.stock_location_id, locationIds), locations.live));
      return rows.map((r) => r.id);
    },

    /** The ids among `ids` that are live locations; callers use it to reject unknown ids. */
    async existing(ids: string[]): Promise<Set<string>> {
      return locations.existing(ids);
    },
  };
  return service;
}

export type StockLocationService = ReturnType<typeof createStockLocationService>;

async function insertAddress(tx: Db, address: StockLocationAddressInput): Promise<string> {
  const id = generateId("laddr");
  await tx.insert(stockLocationAddress).values({
    id,
    address_1: address.address_1,
    address_2: address.address_2 ?? null,
    company: address.company ?? null,
    city: address.city ?? null,
    country_code: address.country_code.toLowerCase(),
    phone: address.phone ?? null,
    province: address.province ?? null,
    postal_code: address.postal_code ?? null,
    metadata: address.metadata ?? null,
  });
  return id;
}

function conditions(filters: StockLocationFilters): SQL[] {
  const out = anyOf(filters, { id: stockLocation.id, name: stockLocation.name });
  if (filters.sales_channel_id?.length) {
    out.push(
      sql`exists (select 1 from ${salesChannelStockLocation} where ${salesChannelStockLocation.stock_location_id} = ${stockLocation.id} and ${salesChannelStockLocation.sales_channel_id} in (${sqlList(filters.sales_channel_id)}))`,
    );
  }
  out.push(...textSearch(filters.q, [stockLocation.name]));
  return out;
}
