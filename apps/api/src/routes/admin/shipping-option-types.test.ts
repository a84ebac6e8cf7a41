import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

const create = async (body: Record<string, unknown>) => {
  const res = await t.admin.post("/admin/shipping-option-types", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().shipping_option_type as { id: string; label: string; code: string; description: string | null };
};

describe("admin shipping option types", () => {
  it("creates, retrieves, updates, lists (q, code, order, paging) and soft-deletes", async () => {
    const express = await create({ label: "Express", code: "express", description: "Next day" });
    expect(express).toMatchObject({ label: "Express", code: "express", description: "Next day", deleted_at: null });
    expect(express.id).toMatch(/^sotype_/);
    expect((await t.admin.get(`/admin/shipping-option-types/${express.id}`)).json().shipping_option_type.code).toBe(
      "express",
    );
    await create({ label: "Standard", code: "standard" });
    const updated = await t.admin.post(`/admin/shipping-option-types/${express.id}`, { label: "Express 24h" });
    expect(updated.json().shipping_option_type).toMatchObject({ label: "Express 24h", code: "express" });

    expect((await t.admin.get("/admin/shipping-option-types?q=24h")).json()).toMatchObject({ count: 1 });
    expect((await t.admin.get("/admin/shipping-option-types?code=standard")).json().shipping_option_types).toEqual([
      expect.objectContaining({ code: "standard", description: null }),
    ]);
    expect((await t.admin.get("/admin/shipping-option-types?order=-code&limit=1&offset=1&fields=code")).json()).toEqual(
      {
        shipping_option_types: [{ id: express.id, code: "express" }],
        count: 2,
        offset: 1,
        limit: 1,
      },
    );

    const deleted = await t.admin.delete(`/admin/shipping-option-types/${express.id}`);
    expect(deleted.json()).toEqual({ id: express.id, object: "shipping_option_type", deleted: true });
    expect((await t.admin.get(`/admin/shipping-option-types/${express.id}`)).statusCode).toBe(404);
    await create({ label: "Express", code: "express" });
  });

  it("rejects bad input, duplicates, unknown ids and anonymous callers, writing nothing", async () => {
    const before = (await t.admin.get("/admin/shipping-option-types")).json().count;
    for (const body of [
      {},
      { label: "x" },
      { code: "x" },
      { label: "", code: "x" },
      { label: "x", code: 1 },
      { label: "x", code: "x", other: 1 },
    ]) {
      const res = await t.admin.post("/admin/shipping-option-types", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await create({ label: "Dup", code: "dup" });
    const dup = await t.admin.post("/admin/shipping-option-types", { label: "Again", code: "dup" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ type: "conflict", message: "Shipping option type with code: dup already exists" });
    expect((await t.admin.get("/admin/shipping-option-types")).json().count).toBe(before + 1);
    expect((await t.admin.get("/admin/shipping-option-types/sotype_missing")).statusCode).toBe(404);
    expect((await t.admin.post("/admin/shipping-option-types/sotype_missing", { label: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/shipping-option-types/sotype_missing")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/admin/shipping-option-types" })).statusCode).toBe(401);
  });

  it("an option created with a type_id (as the dashboard's form posts it) answers that type, kept in step with it", async () => {
    const type = await create({ label: "Overnight", code: "overnight", description: "By 9am" });
    const created = await t.admin.post("/medusa/admin/shipping-options", {
      name: "Overnight",
      price_type: "flat",
      provider_id: "manual_manual",
      prices: [{ currency_code: "usd", amount: 20 }],
      type_id: type.id,
      rules: [{ value: "true", attribute: "enabled_in_store", operator: "eq" }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const option = created.json().shipping_option;
    expect(option).toMatchObject({
      shipping_option_type_id: type.id,
      type: { id: type.id, label: "Overnight", code: "overnight", description: "By 9am" },
    });
    expect(option.prices[0].amount).toBe(20);
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).json().shipping_option.prices[0].amount).toBe(
      2000,
    );

    // Renaming the type renames the options' type.
    await t.admin.post(`/admin/shipping-option-types/${type.id}`, { label: "Overnight express" });
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).json().shipping_option.type.label).toBe(
      "Overnight express",
    );
    // A type in use cannot be deleted.
    const refused = await t.admin.delete(`/admin/shipping-option-types/${type.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().type).toBe("not_allowed");

    // Another type through an update; an unknown one is refused and changes nothing.
    const other = await create({ label: "Economy", code: "economy" });
    const switched = await t.admin.post(`/admin/shipping-options/${option.id}`, { type_id: other.id });
    expect(switched.json().shipping_option).toMatchObject({
      shipping_option_type_id: other.id,
      type: { code: "economy" },
    });
    const unknown = await t.admin.post(`/admin/shipping-options/${option.id}`, { type_id: "sotype_missing" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      type: "invalid_data",
      message: "Shipping option type with id: sotype_missing was not found",
    });
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).json().shipping_option.type.code).toBe(
      "economy",
    );
    const count = (await t.admin.get("/admin/shipping-options")).json().count;
    const bad = await t.admin.post("/admin/shipping-options", {
      name: "Bad",
      prices: [{ currency_code: "usd", amount: 100 }],
      type_id: "sotype_missing",
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.admin.get("/admin/shipping-options")).json().count).toBe(count);
    // The old type is free to delete once no option uses it.
    expect((await t.admin.delete(`/admin/shipping-option-types/${type.id}`)).statusCode).toBe(200);
  });
  it("an option posted with a `type` object gets that code's type record, created once", async () => {
    const post = (name: string, type: Record<string, string>) =>
      t.admin.post("/admin/shipping-options", { name, prices: [{ currency_code: "usd", amount: 100 }], type });
    const first = await post("Pickup A", { label: "Pickup", code: "pickup", description: "At the counter" });
    expect(first.statusCode, first.body).toBe(200);
    const type = (await t.admin.get("/admin/shipping-option-types?code=pickup")).json().shipping_option_types;
    expect(type).toEqual([expect.objectContaining({ label: "Pickup", code: "pickup", description: "At the counter" })]);
    expect(first.json().shipping_option).toMatchObject({
      shipping_option_type_id: type[0].id,
      type: { id: type[0].id, code: "pickup", label: "Pickup" },
    });
    const second = await post("Pickup B", { label: "Counter pickup", code: "pickup" });
    expect(second.json().shipping_option).toMatchObject({
      shipping_option_type_id: type[0].id,
      type: { label: "Pickup" },
    });
    expect((await t.admin.get("/admin/shipping-option-types?code=pickup")).json().count).toBe(1);
    // An update naming another code moves the option to that type.
    const moved = await t.admin.post(`/admin/shipping-options/${second.json().shipping_option.id}`, {
      type: { label: "Locker", code: "locker" },
    });
    expect(moved.json().shipping_option).toMatchObject({ type: { code: "locker", label: "Locker" } });
  });

  it("an option created without a type gets the default type, one record for all", async () => {
    const post = (name: string) =>
      t.admin.post("/admin/shipping-options", { name, prices: [{ currency_code: "usd", amount: 100 }] });
    const first = (await post("Plain A")).json().shipping_option;
    const second = (await post("Plain B")).json().shipping_option;
    const types = (await t.admin.get("/admin/shipping-option-types?code=default")).json().shipping_option_types;
    expect(types).toEqual([
      expect.objectContaining({
        label: "Default",
        code: "default",
        description: "Given to shipping options created without a type",
      }),
    ]);
    for (const option of [first, second])
      expect(option).toMatchObject({
        shipping_option_type_id: types[0].id,
        type: { id: types[0].id, code: "default", label: "Default" },
      });
    // The dashboard's edit drawer reads `type.id`, in Medusa's dialect too.
    const medusa = await t.admin.get(`/medusa/admin/shipping-options/${first.id}`);
    expect(medusa.json().shipping_option.type.id).toBe(types[0].id);
  });

  it("migration 0018 gives the options created before types their type records", async () => {
    const run = (statement: string) => t.database.db.execute(sql.raw(statement));
    const post = async (name: string) =>
      (await t.admin.post("/admin/shipping-options", { name, prices: [{ currency_code: "usd", amount: 100 }] })).json()
        .shipping_option.id as string;
    // As 0014 left them: one option with no type at all, two with a `type` object but no record.
    const [typeless, courierA, courierB] = [
      await post("Old plain"),
      await post("Old courier A"),
      await post("Old courier B"),
    ];
    await run(`update shipping_option set shipping_option_type_id = null, type = null where id = '${typeless}'`);
    await run(
      `update shipping_option set shipping_option_type_id = null,
         type = '{"label": "Courier", "code": "legacy-courier", "description": "By bike"}'
       where id in ('${courierA}', '${courierB}')`,
    );
    // No live default type either (a merchant deleted it): the migration creates one.
    await run(`update shipping_option_type set deleted_at = now() where code = 'default'`);
    const migration = readFileSync(
      new URL("../../../../../drizzle/0018_shipping_option_default_type.sql", import.meta.url),
      "utf8",
    );
    for (const statement of migration.split("--> statement-breakpoint")) await run(statement);

    const typeOf = async (code: string) => {
      const types = (await t.admin.get(`/admin/shipping-option-types?code=${code}`)).json().shipping_option_types;
      expect(types, code).toHaveLength(1);
      return types[0] as { id: string; label: string; code: string; description: string | null };
    };
    const fallback = await typeOf("default");
    const courier = await typeOf("legacy-courier");
    expect(courier).toMatchObject({ label: "Courier", description: "By bike" });
    const option = async (id: string) => (await t.admin.get(`/admin/shipping-options/${id}`)).json().shipping_option;
    expect(await option(typeless)).toMatchObject({
      shipping_option_type_id: fallback.id,
      type: { id: fallback.id, code: "default", label: "Default" },
    });
    for (const id of [courierA, courierB])
      expect(await option(id)).toMatchObject({
        shipping_option_type_id: courier.id,
        type: { id: courier.id, code: "legacy-courier", label: "Courier", description: "By bike" },
      });
    // Run again, it changes nothing.
    for (const statement of migration.split("--> statement-breakpoint")) await run(statement);
    expect((await typeOf("default")).id).toBe(fallback.id);
    expect((await typeOf("legacy-courier")).id).toBe(courier.id);
  });
});
