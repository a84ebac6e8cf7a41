import { describe, expect, it } from "vitest";
import { transaction } from "@kasse/db";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { createSalesChannelService } from "./service";

const database = useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const channels = createSalesChannelService();
const page = { limit: 10, offset: 0 };

describe("sales channels", () => {
  it("creates, filters, updates and soft-deletes channels", async () => {
    const web = await channels.create({ name: "Web 50%", description: "The shop" });
    const pos = await channels.create({ name: "Point of sale", is_disabled: true });
    expect((await channels.list({ q: "50%" }, page)).items.map((c) => c.id)).toEqual([web.id]);
    expect((await channels.list({ is_disabled: true }, page)).items.map((c) => c.id)).toEqual([pos.id]);
    expect((await channels.list({ id: [web.id, pos.id], name: ["Web 50%"] }, page)).count).toBe(1);
    expect((await channels.update(web.id, { description: null })).description).toBeNull();
    await channels.delete(pos.id);
    expect((await failure(channels.retrieve(pos.id))).type).toBe("not_found");
    expect(await channels.existing([web.id, pos.id, "sc_missing"])).toEqual(new Set([web.id]));
  });

  it("keeps one default channel, created on first use, which cannot be deleted", async () => {
    const [first, second] = await Promise.all([channels.getOrCreateDefault(), channels.getOrCreateDefault()]);
    expect(second!.id).toBe(first!.id);
    expect((await failure(channels.delete(first!.id))).type).toBe("not_allowed");
  });

  it("runs in the transaction in progress: a rolled-back create leaves nothing", async () => {
    let id = "";
    await transaction(async () => {
      id = (await channels.create({ name: "Rolled back" })).id;
      expect((await channels.retrieve(id)).name).toBe("Rolled back");
      throw new Error("undo");
    }).catch(() => {});
    expect((await failure(channels.retrieve(id))).type).toBe("not_found");
  });

  it("lists with one statement, whose text is the same at any number of ids", async () => {
    const texts = await database.statements.record(async () => {
      await channels.list({ id: ["a"] }, page);
      await channels.list({ id: ["a", "b", "c"] }, page);
    });
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe(texts[1]);
  });
});
