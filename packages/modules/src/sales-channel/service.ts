import { and, eq, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { type Db, type ListPaging, anyOf, liveRecords, textSearch } from "@kasse/db";
import {
  salesChannel,
  type SalesChannelCreate,
  type SalesChannelFilters,
  type SalesChannelRow,
  type SalesChannelUpdate,
} from "./schema";

/**
 * Sales channels: CRUD plus the store's default channel.
 * @example
 * const channels = createSalesChannelService(db);
 * const channel = await channels.create({ name: "Web" });
 */
export function createSalesChannelService(db: Db) {
  const rows = liveRecords(db, salesChannel, "Sales channel", { name: salesChannel.name });
  const service = {
    create: (input: SalesChannelCreate): Promise<SalesChannelRow> => rows.insert({ ...input, id: generateId("sc") }),

    retrieve: (id: string): Promise<SalesChannelRow> => rows.retrieve(id),

    list: (filters: SalesChannelFilters, page: ListPaging) => rows.list(conditions(filters), page),

    update: (id: string, input: SalesChannelUpdate): Promise<SalesChannelRow> => rows.update(id, input),

    /** Soft delete; the default channel cannot be deleted. */
    async delete(id: string): Promise<void> {
      const existing = await rows.retrieve(id);
      if (existing.is_default) throw errors.notAllowed("The default sales channel cannot be deleted");
      await rows.softDelete(id);
    },

    /** The default channel, created on first use so a fresh store always has one. */
    async getOrCreateDefault(): Promise<SalesChannelRow> {
      const [existing] = await db
        .select()
        .from(salesChannel)
        .where(and(eq(salesChannel.is_default, true), rows.live))
        .limit(1);
      if (existing) return existing;
      const [row] = await db
        .insert(salesChannel)
        .values({
          id: generateId("sc"),
          name: "Default Sales Channel",
          description: "Created by Kasse",
          is_default: true,
        })
        .onConflictDoNothing()
        .returning();
      return row ?? (await service.getOrCreateDefault());
    },

    /** The ids among `ids` that are live channels; callers use it to reject unknown ids. */
    async existing(ids: string[]): Promise<Set<string>> {
      return rows.existing(ids);
    },
  };
  return service;
}

export type SalesChannelService = ReturnType<typeof createSalesChannelService>;

function conditions(filters: SalesChannelFilters): SQL[] {
  const out = anyOf(filters, { id: salesChannel.id, name: salesChannel.name });
  if (filters.is_disabled !== undefined) out.push(eq(salesChannel.is_disabled, filters.is_disabled));
  out.push(...textSearch(filters.q, [salesChannel.name, salesChannel.description]));
  return out;
}
