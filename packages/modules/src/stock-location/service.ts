import { generateId } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging } from "@kasse/db";
import { stockLocationQueries as q } from "./queries";
import type { StockLocationAddressRow, StockLocationRow } from "./schema";
import type {
  StockLocationAddressInput,
  StockLocationCreate,
  StockLocationFilters,
  StockLocationFulfillmentProviders,
  StockLocationSalesChannels,
  StockLocationUpdate,
} from "./shapes";

/** A location as the API shows it; `sales_channel_ids` is turned into `sales_channels` by the route. */
export type StockLocation = Omit<StockLocationRow, "deleted_at"> & {
  address: Omit<StockLocationAddressRow, "deleted_at" | "created_at" | "updated_at"> | null;
  sales_channel_ids: string[];
};

/**
 * Stock locations: CRUD with an address, and the sales channels each location serves. Built once
 * per process; every method runs in the transaction in progress, if any.
 * @example
 * const locations = createStockLocationService();
 * const warehouse = await locations.create({ name: "Berlin", address: { address_1: "Hauptstr. 1", country_code: "de" } });
 */
export function createStockLocationService() {
  const service = {
    async create(input: StockLocationCreate): Promise<StockLocation> {
      return transaction(async () => {
        const address_id = input.address ? await insertAddress(input.address) : null;
        const row = await q.insert({
          id: generateId("sloc"),
          name: input.name,
          address_id,
          metadata: input.metadata ?? null,
        });
        return service.retrieve(row.id);
      });
    },

    retrieve: async (id: string): Promise<StockLocation> => (await hydrate([await q.retrieve(id)]))[0]!,

    list: (filters: StockLocationFilters, page: ListPaging) => viewPage(q.list(filters, page), hydrate),

    async update(id: string, input: StockLocationUpdate): Promise<StockLocation> {
      return transaction(async () => {
        const existing = await service.retrieve(id);
        const changes: Partial<StockLocationRow> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.metadata !== undefined) changes.metadata = input.metadata;
        if (input.address !== undefined) {
          // The address is owned by the location: replace it rather than share it.
          if (existing.address_id) await q.deleteAddress({ id: existing.address_id, deleted_at: new Date() });
          changes.address_id = input.address ? await insertAddress(input.address) : null;
        }
        if (Object.keys(changes).length) await q.update(id, changes);
        return service.retrieve(id);
      });
    },

    /** Soft delete; the location's channel links go with it. */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        await q.softDelete(id);
        await q.unlinkAll({ id });
      });
    },

    /** Links and unlinks sales channels (ids already checked by the caller); linking twice is a no-op. */
    async updateSalesChannels(id: string, input: StockLocationSalesChannels): Promise<StockLocation> {
      return transaction(async () => {
        await service.retrieve(id);
        const add = [...new Set(input.add ?? [])];
        if (add.length) await q.link(add.map((sales_channel_id) => ({ sales_channel_id, stock_location_id: id })));
        if (input.remove?.length) await q.unlink({ id, channels: input.remove });
        return service.retrieve(id);
      });
    },

    /**
     * Which fulfillment providers the location uses: those of `add` from now on, those of `remove`
     * no longer (ids already checked by the caller against the registered providers).
     */
    async updateFulfillmentProviders(id: string, input: StockLocationFulfillmentProviders): Promise<StockLocation> {
      return transaction(async () => {
        await service.retrieve(id);
        if (input.add?.length) await q.include({ id, providers: [...new Set(input.add)] });
        const off = [...new Set(input.remove ?? [])];
        if (off.length) await q.exclude(off.map((provider_id) => ({ stock_location_id: id, provider_id })));
        return service.retrieve(id);
      });
    },

    /** The fulfillment providers each of the locations `ids` does not use, by location (absent: it uses every one). */
    async excludedProviders(ids: string[]): Promise<Map<string, string[]>> {
      if (ids.length === 0) return new Map();
      return groupBy(await q.exclusions(ids), (r) => r.stock_location_id, { value: (r) => r.provider_id });
    },

    /** The live locations serving any of the given sales channels, oldest first. */
    async locationIdsForSalesChannels(salesChannelIds: string[]): Promise<string[]> {
      if (salesChannelIds.length === 0) return [];
      return (await q.locationsOfChannels({ ids: salesChannelIds })).map((r) => r.id);
    },

    /** The sales channels any of the given live locations serve (the `location_id` filter of a channel list). */
    async salesChannelIdsOfLocations(locationIds: string[]): Promise<string[]> {
      if (locationIds.length === 0) return [];
      return (await q.channelsOfLocations({ ids: locationIds })).map((r) => r.id);
    },

    /** The ids among `ids` that are live locations; callers use it to reject unknown ids. */
    existing: q.existing,
  };
  return service;
}

export type StockLocationService = ReturnType<typeof createStockLocationService>;

/** Adds addresses and channel ids to a page of locations: one query per relation. */
async function hydrate(rows: StockLocationRow[]): Promise<StockLocation[]> {
  if (rows.length === 0) return [];
  const addressIds = rows.map((r) => r.address_id).filter((id): id is string => id !== null);
  const [addresses, links] = await Promise.all([
    addressIds.length ? q.addresses(addressIds) : Promise.resolve([]),
    q.links(rows.map((r) => r.id)),
  ]);
  const addressById = new Map(addresses.map(({ deleted_at: _d, created_at: _c, updated_at: _u, ...a }) => [a.id, a]));
  const channelsOf = groupBy(links, (l) => l.stock_location_id, { value: (l) => l.sales_channel_id });
  return rows.map(({ deleted_at: _deleted, ...row }) => ({
    ...row,
    address: row.address_id ? (addressById.get(row.address_id) ?? null) : null,
    sales_channel_ids: channelsOf.get(row.id) ?? [],
  }));
}

/** Inserts the address and answers its id. */
async function insertAddress(address: StockLocationAddressInput): Promise<string> {
  const id = generateId("laddr");
  await q.insertAddress({
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
