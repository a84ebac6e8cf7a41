import { describe, expect, it } from "vitest";
import { onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createCustomerService } from "./index";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const customers = createCustomerService();

const address = { address_1: "1 Main St", city: "Berlin", postal_code: "10115", country_code: "DE" };

describe("customer service", () => {
  it("keeps emails unique per account kind among live customers, case-insensitively", async () => {
    const guest = await customers.create({ email: "Same@Example.com" });
    // A registered customer may share a guest's email (a guest who later signs up).
    const registered = await customers.create({ email: "same@example.com" }, { has_account: true });
    expect([guest.email, registered.email]).toEqual(["same@example.com", "same@example.com"]);
    await expect(customers.create({ email: "SAME@example.com" }, { has_account: true })).rejects.toMatchObject({
      type: "conflict",
    });
    await customers.delete(registered.id);
    await expect(customers.retrieve(registered.id)).rejects.toMatchObject({ type: "not_found" });
    expect((await customers.create({ email: "same@example.com" }, { has_account: true })).has_account).toBe(true);
    expect((await customers.findAccountByEmail("SAME@example.com"))?.has_account).toBe(true);
  });

  it("at most one default shipping and billing address per customer, even under concurrent writes", async () => {
    const c = await customers.create({ email: "defaults@example.com" });
    const writes = Array.from({ length: onPostgres() ? 6 : 3 }, (_, i) =>
      customers.addAddress(c.id, {
        ...address,
        address_1: `${i} Main St`,
        is_default_shipping: true,
        is_default_billing: i % 2 === 0,
      }),
    );
    await Promise.all(writes);
    const { addresses } = await customers.retrieve(c.id);
    expect(addresses.filter((a) => a.is_default_shipping)).toHaveLength(1);
    expect(addresses.filter((a) => a.is_default_billing)).toHaveLength(1);
    expect(addresses.every((a) => a.country_code === "de")).toBe(true);
  });

  it("never reveals another customer's address", async () => {
    const a = await customers.create({ email: "owner-a@example.com" });
    const b = await customers.create({ email: "owner-b@example.com" });
    const addr = await customers.addAddress(a.id, address);
    await expect(customers.retrieveAddress(b.id, addr.id)).rejects.toMatchObject({ type: "not_found" });
    await expect(customers.updateAddress(b.id, addr.id, { city: "x" })).rejects.toMatchObject({ type: "not_found" });
    await expect(customers.deleteAddress(b.id, addr.id)).rejects.toMatchObject({ type: "not_found" });
    expect((await customers.retrieveAddress(a.id, addr.id)).city).toBe("Berlin");
  });

  it("groupIdsOfCustomer lists live groups only; membership changes are all or nothing", async () => {
    const c = await customers.create({ email: "grouped@example.com" });
    const vip = await customers.createGroup({ name: "VIP" });
    const gone = await customers.createGroup({ name: "Gone" });
    await customers.updateGroupCustomers(vip.id, { add: [c.id] });
    await customers.updateGroupCustomers(gone.id, { add: [c.id] });
    await customers.deleteGroup(gone.id);
    expect(await customers.groupIdsOfCustomer(c.id)).toEqual([vip.id]);
    await expect(
      customers.updateGroupCustomers(vip.id, { remove: [c.id], add: ["cus_unknown"] }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    expect(await customers.groupIdsOfCustomer(c.id)).toEqual([vip.id]);
    expect((await customers.list({ groups: [vip.id] }, { limit: 10, offset: 0 })).items.map((x) => x.id)).toEqual([
      c.id,
    ]);
  });

  it("updateCustomerGroups changes one customer's groups all or nothing", async () => {
    const c = await customers.create({ email: "member@example.com" });
    const a = await customers.createGroup({ name: "Group A" });
    const b = await customers.createGroup({ name: "Group B" });
    const added = await customers.updateCustomerGroups(c.id, { add: [a.id, b.id, a.id] });
    expect(added.groups.map((g) => g.id).sort()).toEqual([a.id, b.id].sort());
    // An unknown group fails the whole change: the removal of A does not happen either.
    await expect(
      customers.updateCustomerGroups(c.id, { remove: [a.id], add: ["cusgroup_unknown"] }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    expect((await customers.groupIdsOfCustomer(c.id)).sort()).toEqual([a.id, b.id].sort());
    expect((await customers.updateCustomerGroups(c.id, { remove: [a.id] })).groups.map((g) => g.id)).toEqual([b.id]);
    await expect(customers.updateCustomerGroups("cus_unknown", { add: [b.id] })).rejects.toMatchObject({
      type: "not_found",
    });
  });

  it("restore undoes a delete: the customer and the addresses deleted with it are live again, not those deleted before", async () => {
    const ana = await customers.create({ email: "restore@example.com" }, { has_account: true });
    const kept = await customers.addAddress(ana.id, { ...address, is_default_shipping: true });
    const gone = await customers.addAddress(ana.id, address);
    await customers.deleteAddress(ana.id, gone.id);
    const deletedAt = await customers.delete(ana.id);
    await expect(customers.retrieve(ana.id)).rejects.toMatchObject({ type: "not_found" });
    expect(await customers.findAccountByEmail("restore@example.com")).toBeNull();
    // The journal keeps the time as ISO 8601 text: the step restores from that.
    await customers.restore(ana.id, new Date(deletedAt.toISOString()));
    const back = await customers.retrieve(ana.id);
    expect(back.addresses.map((a) => a.id)).toEqual([kept.id]);
    expect(back.default_shipping_address_id).toBe(kept.id);
    expect((await customers.findAccountByEmail("RESTORE@example.com"))?.id).toBe(ana.id);
    const fresh = await customers.create({ email: "fresh@example.com" });
    await customers.remove(fresh.id);
    await expect(customers.retrieve(fresh.id)).rejects.toMatchObject({ type: "not_found" });
  });
});
