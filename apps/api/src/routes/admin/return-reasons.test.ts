import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin return reasons", () => {
  it("creates, retrieves, updates, lists and soft-deletes", async () => {
    const created = await t.admin.post("/admin/return-reasons", {
      value: "damaged",
      label: "Damaged",
      description: "Arrived broken",
    });
    expect(created.statusCode).toBe(200);
    const reason = created.json().return_reason;
    expect(reason).toMatchObject({ value: "damaged", label: "Damaged", description: "Arrived broken", metadata: null });
    expect(reason.id).toMatch(/^rr_/);
    expect((await t.admin.get(`/admin/return-reasons/${reason.id}`)).json().return_reason.label).toBe("Damaged");
    expect(
      (await t.admin.post(`/admin/return-reasons/${reason.id}`, { label: "Broken" })).json().return_reason.label,
    ).toBe("Broken");
    await t.admin.post("/admin/return-reasons", { value: "wrong_size", label: "Wrong size" });
    const list = await t.admin.get("/admin/return-reasons?q=broken");
    expect(list.json()).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect((await t.admin.get("/admin/return-reasons?order=-value&fields=value")).json().return_reasons).toEqual([
      { id: expect.any(String), value: "wrong_size" },
      { id: reason.id, value: "damaged" },
    ]);
    const deleted = await t.admin.delete(`/admin/return-reasons/${reason.id}`);
    expect(deleted.json()).toEqual({ id: reason.id, object: "return_reason", deleted: true });
    expect((await t.admin.get(`/admin/return-reasons/${reason.id}`)).statusCode).toBe(404);
    // The value is free again once deleted.
    expect((await t.admin.post("/admin/return-reasons", { value: "damaged", label: "Damaged" })).statusCode).toBe(200);
  });

  it("rejects bad input, duplicates and unknown ids", async () => {
    const before = (await t.admin.get("/admin/return-reasons")).json().count;
    for (const body of [
      {},
      { value: "x" },
      { value: "", label: "x" },
      { value: 1, label: "x" },
      { value: "x", label: "x", other: 1 },
    ]) {
      const res = await t.admin.post("/admin/return-reasons", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await t.admin.post("/admin/return-reasons", { value: "dup", label: "Dup" });
    const dup = await t.admin.post("/admin/return-reasons", { value: "dup", label: "Again" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ type: "conflict", message: "Return reason with value: dup already exists" });
    expect((await t.admin.get("/admin/return-reasons")).json().count).toBe(before + 1);
    expect((await t.admin.post("/admin/return-reasons/rr_missing", { label: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/return-reasons/rr_missing")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/admin/return-reasons" })).statusCode).toBe(401);
  });
});
