import { and, eq, ilike, isNull, or, type SQL } from "drizzle-orm";
import {
  errors,
  generateId,
  orderBy,
  type Db,
  type Paging,
  listPage,
  likePattern,
  existingIds,
  anyOf,
} from "@kasse/db";
import {
  salesChannel,
  type SalesChannelCreate,
  type SalesChannelFilters,
  type SalesChannelRow,
  type SalesChannelUpdate,
} from "./schema";

const live = isNull(salesChannel.deleted_at);

/**
 * Sales channels: CRUD plus the store's default channel.
 * @example
 * const channels = createSalesChannelService(db);
 * const channel = await channels.create({ name: "Web" });
 */
export function createSalesChannelService(db: Db) {
  const service = {
    async create(input: SalesChannelCreate): Promise<SalesChannelRow> {
      const [row] = await db
        .insert(salesChannel)
        .values({
          id: generateId("sc"),
          name: input.name,
          description: input.description ?? null,
          is_disabled: input.is_disabled ?? false,
          metadata: input.metadata ?? null,
        })
        .returning();
      return row!;
    },

    async retrieve(id: string): Promise<SalesChannelRow> {
      const [row] = await db
        .select()
        .from(salesChannel)
        .where(and(eq(salesChannel.id, id), live));
      if (!row) throw errors.notFound(`Sales channel with id: ${id} was not found`);
      return row;
    },

    async list(
      filters: SalesChannelFilters,
      page: Paging & { order?: string },
    ): Promise<{ items: SalesChannelRow[]; count: number }> {
      const where = and(live, ...conditions(filters));
      return listPage(
        db,
        salesChannel,
        where,
        orderBy(
          page.order,
          { created_at: salesChannel.created_at, updated_at: salesChannel.updated_at, name: salesChannel.name },
          salesChannel.id,
        ),
        page,
      );
    },

    async update(id: string, input: SalesChannelUpdate): Promise<SalesChannelRow> {
      if (Object.keys(input).length === 0) return service.retrieve(id);
      const [row] = await db
        .update(salesChannel)
        .set(input)
        .where(and(eq(salesChannel.id, id), live))
        .returning();
      if (!row) throw errors.notFound(`Sales channel with id: ${id} was not found`);
      return row;
    },

    /** Soft delete; the default channel cannot be deleted. */
    async delete(id: string): Promise<void> {
      const existing = await service.retrieve(id);
      if (existing.is_default) throw errors.notAllowed("The default sales channel cannot be deleted");
      await db.update(salesChannel).set({ deleted_at: new Date() }).where(eq(salesChannel.id, id));
    },

    /** The default channel, created on first use so a fresh store always has one. */
    async getOrCreateDefault(): Promise<SalesChannelRow> {
      const [existing] = await db
        .select()
        .from(salesChannel)
        .where(and(eq(salesChannel.is_default, true), live))
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
      return existingIds(db, salesChannel, ids, live);
    },
  };
  return service;
}

export type SalesChannelService = ReturnType<typeof createSalesChannelService>;

function conditions(filters: SalesChannelFilters): SQL[] {
  const out = anyOf(filters, { id: salesChannel.id, name: salesChannel.name });
  if (filters.is_disabled !== undefined) out.push(eq(salesChannel.is_disabled, filters.is_disabled));
  if (filters.q) {
    const pattern = likePattern(filters.q);
    out.push(or(ilike(salesChannel.name, pattern), ilike(salesChannel.description, pattern))!);
  }
  return out;
}
