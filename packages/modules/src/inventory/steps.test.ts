import { beforeAll, describe, expect, it } from "vitest";
import { errors, type KasseError } from "@kasse/core";
import { failure, onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createEngine, definitions, type Engine } from "@kasse/workflows";
import { createInventoryService, type ReserveForLinesInput } from "./service";
import {
  consumeLineItemsStep,
  receiveVariantsStep,
  releaseLineItemReservationsStep,
  reserveLineItemsStep,
} from "./steps";
import { createModules, type Modules } from "../modules";
import { eventOutbox } from "@kasse/modules";

const { step, workflow } = definitions<Modules>();

// The inventory steps the order sagas run (checkout reserves, cancel releases, fulfillment
// consumes, a return receipt restocks), each with its compensation when a later step fails.

const database = useTestDatabase({ poolSize: 20 });
let engine: Engine;
/** The sales channel's locations, oldest first, as checkout passes them (`locationIdsForSalesChannels`). */
const OLDER = "sloc_older";
const NEWER = "sloc_newer";
const ELSEWHERE = "sloc_other_channel";
const CHANNEL_LOCATIONS = [OLDER, NEWER];
const LOC = OLDER;

const inventory = createInventoryService();
beforeAll(async () => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
});

/** A variant with its own inventory item stocked as given. */
async function variant(id: string, stock: Record<string, number>): Promise<string> {
  const [link] = await inventory.createItemsForVariants([{ variant_id: id, sku: id.toUpperCase(), title: id }]);
  const levels = Object.entries(stock).map(([location_id, stocked_quantity]) => ({ location_id, stocked_quantity }));
  if (levels.length) await inventory.createLevels(link!.inventory_item_id, levels);
  return link!.inventory_item_id;
}
const reserved = async (itemId: string, locationId: string) =>
  (await inventory.retrieveLevel(itemId, locationId)).reserved_quantity;
const level = (itemId: string) => inventory.retrieveLevel(itemId, LOC);
type Lines = ReserveForLinesInput["lines"];
const lines = (
  items: Array<{ line_item_id: string; variant_id: string; quantity: number; allow_backorder?: boolean }>,
): Lines => items.map((item) => ({ ...item, allow_backorder: item.allow_backorder === true }));

const failingStep = step("test-always-fails", {
  invoke: async (input: { reason: string }): Promise<{ output: null }> => {
    throw errors.invalidData(input.reason);
  },
});
const reserveFlow = workflow("test-reserve-line-items", (input: ReserveForLinesInput, ctx) =>
  ctx.run(reserveLineItemsStep, input),
);
const reserve = (
  items: Lines,
  options: { location_ids?: string[]; strategy?: ReserveForLinesInput["strategy"] } = {},
) =>
  engine.execute(reserveFlow, {
    lines: items,
    location_ids: options.location_ids ?? CHANNEL_LOCATIONS,
    strategy: options.strategy ?? "single_location_first",
  });
/** Reserves, then fails at its last step: everything reserved must be compensated. */
const failingAfterReserve = workflow("test-reserve-then-fail", async (input: ReserveForLinesInput, ctx) => {
  await ctx.run(reserveLineItemsStep, input);
  await ctx.run(failingStep, { reason: "payment declined" });
});
const releaseFlow = workflow("test-release-line-items", (input: { line_item_ids: string[] }, ctx) =>
  ctx.run(releaseLineItemReservationsStep, input),
);
const releaseThenFail = workflow("test-release-then-fail", async (input: { line_item_ids: string[] }, ctx) => {
  await ctx.run(releaseLineItemReservationsStep, input);
  await ctx.run(failingStep, { reason: "later step failed" });
});
type FulfillLines = Array<{ line_item_id: string; variant_id: string; quantity: number }>;
type ReceiveLines = Array<{ variant_id: string; location_id: string; quantity: number }>;
const fulfillFlow = workflow("test-consume-line-items", (input: FulfillLines, ctx) =>
  ctx.run(consumeLineItemsStep, input),
);
const receiveFlow = workflow("test-receive-variants", (input: ReceiveLines, ctx) =>
  ctx.run(receiveVariantsStep, input),
);
const moveThenFail = workflow(
  "test-stock-moves-then-fail",
  async (input: { fulfill: FulfillLines; receive: ReceiveLines }, ctx) => {
    await ctx.run(consumeLineItemsStep, input.fulfill);
    await ctx.run(receiveVariantsStep, input.receive);
    await ctx.run(failingStep, { reason: "later step failed" });
  },
);

describe("reserveLineItemsStep (checkout)", () => {
  it("serves the whole order from one location when one can, else each item where it can", async () => {
    const x = await variant("var_x", { [OLDER]: 5, [NEWER]: 5 });
    const y = await variant("var_y", { [OLDER]: 0, [NEWER]: 5 });
    const single = await reserve(
      lines([
        { line_item_id: "l1", variant_id: "var_x", quantity: 2 },
        { line_item_id: "l2", variant_id: "var_y", quantity: 1 },
      ]),
    );
    expect(single.map((r) => r.location_id)).toEqual([NEWER, NEWER]);
    expect(single.map((r) => [r.line_item_id, r.quantity])).toEqual([
      ["l1", 2],
      ["l2", 1],
    ]);
    expect(await reserved(x, NEWER)).toBe(2);

    const perItem = await reserve(
      lines([
        { line_item_id: "l3", variant_id: "var_x", quantity: 2 },
        { line_item_id: "l4", variant_id: "var_y", quantity: 1 },
      ]),
      { strategy: "per_item" },
    );
    expect(perItem.map((r) => r.location_id)).toEqual([OLDER, NEWER]);
    expect(await reserved(x, OLDER)).toBe(2);
    expect(await reserved(y, NEWER)).toBe(2);
  });

  it("sums the lines of one variant before checking, and reserves nothing when an item cannot be served", async () => {
    const z = await variant("var_z", { [OLDER]: 5, [NEWER]: 5, [ELSEWHERE]: 100 });
    const w = await variant("var_w", { [OLDER]: 9 });
    const error = await failure(
      reserve(
        lines([
          { line_item_id: "l5", variant_id: "var_w", quantity: 1 },
          { line_item_id: "l6", variant_id: "var_z", quantity: 3 },
          { line_item_id: "l7", variant_id: "var_z", quantity: 3 },
        ]),
      ),
    );
    expect(error.type).toBe("invalid_data");
    expect(error.message).toMatch(/insufficient inventory/i);
    for (const loc of [OLDER, NEWER, ELSEWHERE]) expect(await reserved(z, loc)).toBe(0);
    expect(await reserved(w, OLDER)).toBe(0);
  });

  it("lets backordered variants go beyond stock; a channel without locations cannot reserve", async () => {
    const b = await variant("var_backorder", { [NEWER]: 1 });
    const result = await reserve(
      lines([{ line_item_id: "l9", variant_id: "var_backorder", quantity: 4, allow_backorder: true }]),
    );
    expect(result).toEqual([expect.objectContaining({ line_item_id: "l9", location_id: NEWER, quantity: 4 })]);
    expect(await inventory.retrieveLevel(b, NEWER)).toMatchObject({ reserved_quantity: 4, available_quantity: -3 });
    expect(
      (
        await failure(
          reserve(lines([{ line_item_id: "l10", variant_id: "var_backorder", quantity: 1 }]), { location_ids: [] }),
        )
      ).type,
    ).toBe("invalid_data");
  });

  it("releases exactly what it reserved when a later step fails", async () => {
    const c = await variant("var_comp", { [OLDER]: 3 });
    await inventory.reserve([{ inventory_item_id: c, location_id: OLDER, quantity: 1, line_item_id: "someone_else" }]);
    const error = await failure(
      engine.execute(failingAfterReserve, {
        lines: lines([{ line_item_id: "l11", variant_id: "var_comp", quantity: 2 }]),
        location_ids: CHANNEL_LOCATIONS,
      }),
    );
    expect(error.message).toBe("payment declined");
    expect(await inventory.retrieveLevel(c, OLDER)).toMatchObject({ reserved_quantity: 1, available_quantity: 2 });
    expect((await inventory.listReservations({ line_item_id: ["l11"] }, { limit: 10, offset: 0 })).count).toBe(0);
  });

  it.runIf(onPostgres())(
    "racing orders fall back to the next location when the first runs dry: 30 parallel against 10 + 10",
    async () => {
      const item = await variant("var_two_locations", { [OLDER]: 10, [NEWER]: 10 });
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          reserve(lines([{ line_item_id: `two_${i}`, variant_id: "var_two_locations", quantity: 1 }])),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
      expect(await inventory.retrieveLevel(item, OLDER)).toMatchObject({
        reserved_quantity: 10,
        available_quantity: 0,
      });
      expect(await inventory.retrieveLevel(item, NEWER)).toMatchObject({
        reserved_quantity: 10,
        available_quantity: 0,
      });
    },
  );

  it.runIf(onPostgres())(
    "50 parallel workflows of 1 unit against stock 20: exactly 20 succeed; failing ones all compensate",
    async () => {
      const item = await variant("var_race", { [OLDER]: 20 });
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          reserve(lines([{ line_item_id: `race_${i}`, variant_id: "var_race", quantity: 1 }])),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
      for (const r of results)
        if (r.status === "rejected") expect((r.reason as KasseError).message).toMatch(/insufficient inventory/i);
      expect(await inventory.retrieveLevel(item, OLDER)).toMatchObject({
        stocked_quantity: 20,
        reserved_quantity: 20,
        available_quantity: 0,
      });

      const other = await variant("var_race_fail", { [OLDER]: 20 });
      const failed = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          engine.execute(failingAfterReserve, {
            lines: lines([{ line_item_id: `fail_${i}`, variant_id: "var_race_fail", quantity: 1 }]),
            location_ids: CHANNEL_LOCATIONS,
          }),
        ),
      );
      expect(failed.every((r) => r.status === "rejected")).toBe(true);
      const reasons = failed.map((r) => ((r as PromiseRejectedResult).reason as KasseError).message);
      // Up to 20 got their unit and then failed at the last step; the rest found no stock. All undone.
      expect(reasons.filter((m) => m === "payment declined").length).toBeGreaterThanOrEqual(20);
      expect(await inventory.retrieveLevel(other, OLDER)).toMatchObject({
        stocked_quantity: 20,
        reserved_quantity: 0,
        available_quantity: 20,
      });
      expect((await inventory.listReservations({ inventory_item_id: [other] }, { limit: 10, offset: 0 })).count).toBe(
        0,
      );
    },
  );
});

describe("releaseLineItemReservationsStep (order cancel)", () => {
  it("releases every reservation of the line items, once", async () => {
    const item = await variant("var_rel", { [LOC]: 10 });
    const [a, b] = await inventory.reserve([
      { inventory_item_id: item, location_id: LOC, quantity: 2, line_item_id: "line_a" },
      { inventory_item_id: item, location_id: LOC, quantity: 3, line_item_id: "line_b" },
    ]);
    const released = await engine.execute(releaseFlow, { line_item_ids: ["line_b", "line_a"] });
    expect(released.map((r) => r.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(await level(item)).toMatchObject({ reserved_quantity: 0, available_quantity: 10 });
    expect(await engine.execute(releaseFlow, { line_item_ids: ["line_a"] })).toEqual([]);
  });

  it("brings back exactly what it released when a later step fails", async () => {
    const item = await variant("var_rel_undo", { [LOC]: 10 });
    const [a] = await inventory.reserve([
      { inventory_item_id: item, location_id: LOC, quantity: 4, line_item_id: "line_c" },
    ]);
    await failure(engine.execute(releaseThenFail, { line_item_ids: ["line_c"] }));
    expect(await level(item)).toMatchObject({ reserved_quantity: 4, available_quantity: 6 });
    expect((await inventory.retrieveReservation(a!.id)).quantity).toBe(4);
  });
});

describe("consumeLineItemsStep (fulfillment) and receiveVariantsStep (return receipt)", () => {
  it("fulfillment consumes the line's reservations and takes the units out of stock", async () => {
    const item = await variant("var_ful", { [LOC]: 10 });
    await inventory.reserve([{ inventory_item_id: item, location_id: LOC, quantity: 4, line_item_id: "line_ful" }]);
    const consumed = await engine.execute(fulfillFlow, [
      { line_item_id: "line_ful", variant_id: "var_ful", quantity: 3 },
    ]);
    expect(consumed).toEqual([expect.objectContaining({ inventory_item_id: item, quantity: 3, deleted: false })]);
    expect(await level(item)).toMatchObject({ stocked_quantity: 7, reserved_quantity: 1, available_quantity: 6 });
    await engine.execute(fulfillFlow, [{ line_item_id: "line_ful", variant_id: "var_ful", quantity: 1 }]);
    expect(await level(item)).toMatchObject({ stocked_quantity: 6, reserved_quantity: 0, available_quantity: 6 });
    expect((await inventory.listReservations({ line_item_id: ["line_ful"] }, { limit: 5, offset: 0 })).count).toBe(0);

    const short = await failure(
      engine.execute(fulfillFlow, [{ line_item_id: "line_ful", variant_id: "var_ful", quantity: 1 }]),
    );
    expect(short.type).toBe("invalid_data");
    expect(await level(item)).toMatchObject({ stocked_quantity: 6, reserved_quantity: 0 });
  });

  it("a bundle consumes required_quantity of each item per unit", async () => {
    const [link] = await inventory.createItemsForVariants([
      { variant_id: "var_bundle", sku: "BUNDLE", title: "bundle" },
    ]);
    const extra = await variant("var_part", { [LOC]: 10 });
    await inventory.linkVariants([{ variant_id: "var_bundle", inventory_item_id: extra, required_quantity: 2 }]);
    await inventory.createLevels(link!.inventory_item_id, [{ location_id: LOC, stocked_quantity: 5 }]);
    await inventory.reserveForLines({
      lines: [{ line_item_id: "line_bundle", variant_id: "var_bundle", quantity: 2 }],
      location_ids: [LOC],
    });
    expect(await level(extra)).toMatchObject({ reserved_quantity: 4 });
    await engine.execute(fulfillFlow, [{ line_item_id: "line_bundle", variant_id: "var_bundle", quantity: 1 }]);
    expect(await level(link!.inventory_item_id)).toMatchObject({ stocked_quantity: 4, reserved_quantity: 1 });
    expect(await level(extra)).toMatchObject({ stocked_quantity: 8, reserved_quantity: 2 });
  });

  it("a return receipt puts units back in stock", async () => {
    const item = await variant("var_ret", { [LOC]: 2 });
    const received = await engine.execute(receiveFlow, [{ variant_id: "var_ret", location_id: LOC, quantity: 3 }]);
    expect(received).toEqual([{ inventory_item_id: item, location_id: LOC, adjustment: 3 }]);
    expect(await level(item)).toMatchObject({ stocked_quantity: 5, available_quantity: 5 });
    const bad = await failure(inventory.adjustStock([{ inventory_item_id: item, location_id: LOC, adjustment: -6 }]));
    expect(bad.type).toBe("invalid_data");
    expect(await level(item)).toMatchObject({ stocked_quantity: 5 });
  });

  it("undoes fulfillment and receipt exactly when a later step fails", async () => {
    const item = await variant("var_undo", { [LOC]: 10 });
    await inventory.reserve([{ inventory_item_id: item, location_id: LOC, quantity: 3, line_item_id: "line_undo" }]);
    const error = await failure(
      engine.execute(moveThenFail, {
        fulfill: [{ line_item_id: "line_undo", variant_id: "var_undo", quantity: 3 }],
        receive: [{ variant_id: "var_undo", location_id: LOC, quantity: 2 }],
      }),
    );
    expect(error.message).toBe("later step failed");
    expect(await level(item)).toMatchObject({ stocked_quantity: 10, reserved_quantity: 3, available_quantity: 7 });
    const [r] = (await inventory.listReservations({ line_item_id: ["line_undo"] }, { limit: 5, offset: 0 })).items;
    expect(r).toMatchObject({ quantity: 3 });
  });
});
