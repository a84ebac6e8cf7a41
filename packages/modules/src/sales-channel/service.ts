import { errors, generateId } from "@kasse/core";
import { salesChannelQueries as q } from "./queries";
import type { SalesChannelRow } from "./schema";
import type { SalesChannelCreate, SalesChannelUpdate } from "./shapes";

/**
 * Sales channels: CRUD plus the store's default channel. Built once per process; every method runs
 * in the transaction in progress, if any.
 * @example
 * const channels = createSalesChannelService();
 * const channel = await channels.create({ name: "Web" });
 */
export function createSalesChannelService() {
  const service = {
    create: (input: SalesChannelCreate): Promise<SalesChannelRow> => q.insert({ ...input, id: generateId("sc") }),
    retrieve: q.retrieve,
    list: q.list,
    update: (id: string, input: SalesChannelUpdate): Promise<SalesChannelRow> => q.update(id, input),

    /** Soft delete; the default channel cannot be deleted. */
    async delete(id: string): Promise<void> {
      const existing = await q.retrieve(id);
      if (existing.is_default) throw errors.notAllowed("The default sales channel cannot be deleted");
      await q.softDelete(id);
    },

    /** The default channel, created on first use so a fresh store always has one. */
    async getOrCreateDefault(): Promise<SalesChannelRow> {
      return (
        (await q.defaultChannel()) ?? (await q.insertDefault({ id: generateId("sc") })) ?? service.getOrCreateDefault()
      );
    },

    /**
     * The ids among `ids` that are live channels not disabled, in the order given: what a
     * publishable key may see (a disabled channel's key sees nothing).
     */
    async enabled(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const enabled = new Set((await q.enabledAmong({ ids })).map((r) => r.id));
      return ids.filter((id) => enabled.has(id));
    },

    /** The ids among `ids` that are live channels; callers use it to reject unknown ids. */
    existing: q.existing,
  };
  return service;
}

export type SalesChannelService = ReturnType<typeof createSalesChannelService>;
