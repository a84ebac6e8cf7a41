import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp({}, { adminId: "user_admin_1" });

const address = { address_1: "1 Main St", city: "Berlin", postal_code: "10115", country_code: "DE" };

async function createCustomer(body: Record<string, unknown>) {
  const res = await t.admin.post("/admin/customers", body);
  expect(res.statusCode).toBe(200);
  return res.json().customer;
}

describe("admin customers", () => {
  it("creates with has_account false and created_by the admin, retrieves with addresses and groups, updates, soft-deletes", async () => {
    const customer = await createCustomer({
      email: "Ana@Example.com",
      first_name: "Ana",
      company: "Acme",
      metadata: { vip: true },
    });
    expect(customer).toMatchObject({
      email: "ana@example.com",
      first_name: "Ana",
      last_name: null,
      company: "Acme",
      company_name: "Acme",
      has_account: false,
      created_by: "user_admin_1",
      metadata: { vip: true },
      addresses: [],
      groups: [],
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(new Date(customer.created_at).toISOString()).toBe(customer.created_at);

    const updated = await t.admin.post(`/admin/customers/${customer.id}`, {
      last_name: "Lima",
      company_name: "Acme GmbH",
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().customer).toMatchObject({ first_name: "Ana", last_name: "Lima", company: "Acme GmbH" });

    const fetched = await t.admin.get(`/admin/customers/${customer.id}`);
    expect(fetched.json().customer).toMatchObject({ id: customer.id, last_name: "Lima", addresses: [], groups: [] });
    const narrowed = await t.admin.get(`/admin/customers/${customer.id}?fields=email,addresses.city`);
    expect(narrowed.json().customer).toEqual({ id: customer.id, email: "ana@example.com", addresses: [] });

    const deleted = await t.admin.delete(`/admin/customers/${customer.id}`);
    expect(deleted.json()).toEqual({ id: customer.id, object: "customer", deleted: true });
    expect((await t.admin.get(`/admin/customers/${customer.id}`)).statusCode).toBe(404);
    expect((await t.admin.post(`/admin/customers/${customer.id}`, { first_name: "x" })).statusCode).toBe(404);
    // A deleted customer frees its email.
    await createCustomer({ email: "ana@example.com" });
  });

  it("rejects a duplicate live email with 409 conflict", async () => {
    await createCustomer({ email: "dup@example.com" });
    const res = await t.admin.post("/admin/customers", { email: "DUP@example.com" });
    expect(res.statusCode).toBe(409);
    expect(res.json().type).toBe("conflict");
    const other = await createCustomer({ email: "other@example.com" });
    const clash = await t.admin.post(`/admin/customers/${other.id}`, { email: "dup@example.com" });
    expect(clash.statusCode).toBe(409);
    expect((await t.admin.get(`/admin/customers/${other.id}`)).json().customer.email).toBe("other@example.com");
  });

  it("rejects bad input with 400 invalid_data and writes nothing", async () => {
    const before = (await t.admin.get("/admin/customers")).json().count;
    for (const body of [
      {},
      { email: "not-an-email" },
      { email: 5 },
      { email: "a@b.co", unknown: 1 },
      { email: "a@b.co", first_name: 3 },
      { email: "a@b.co", metadata: "x" },
    ]) {
      const res = await t.admin.post("/admin/customers", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(typeof res.json().message).toBe("string");
    }
    expect((await t.admin.get("/admin/customers")).json().count).toBe(before);
    expect((await t.admin.get("/admin/customers?has_account=maybe")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/customers?created_at[gte]=yesterday")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/customers?created_at[between]=2020-01-01")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/customers?order=password")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/customers?nope=1")).statusCode).toBe(400);
  });

  it("lists with q, email, has_account, groups, created_at ranges, fields, order and paging", async () => {
    const zed = await createCustomer({ email: "zed@list.test", first_name: "Zed", phone: "+4930111" });
    const yan = await createCustomer({ email: "yan@list.test", last_name: "Quixote", company: "Listco" });
    const group = (await t.admin.post("/admin/customer-groups", { name: "List VIP" })).json().customer_group;
    await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { customer_ids: [yan.id] });

    const byQ = async (q: string) =>
      (await t.admin.get(`/admin/customers?q=${encodeURIComponent(q)}`))
        .json()
        .customers.map((c: { id: string }) => c.id);
    expect(await byQ("zed@list")).toEqual([zed.id]);
    expect(await byQ("quix")).toEqual([yan.id]);
    expect(await byQ("listco")).toEqual([yan.id]);
    expect(await byQ("4930111")).toEqual([zed.id]);
    expect(await byQ("%")).toEqual([]);

    expect(
      (await t.admin.get("/admin/customers?email=ZED@list.test")).json().customers.map((c: { id: string }) => c.id),
    ).toEqual([zed.id]);
    expect((await t.admin.get("/admin/customers?has_account=true")).json().count).toBe(0);
    const grouped = (await t.admin.get(`/admin/customers?groups[]=${group.id}`)).json();
    expect(grouped.count).toBe(1);
    expect(grouped.customers[0]).toMatchObject({ id: yan.id, groups: [{ id: group.id, name: "List VIP" }] });

    const since = new Date(Date.parse(zed.created_at)).toISOString();
    const ranged = (await t.admin.get(`/admin/customers?created_at[gte]=${since}&q=list.test&order=created_at`)).json();
    expect(ranged.customers.map((c: { id: string }) => c.id)).toEqual([zed.id, yan.id]);
    const medusaForm = (
      await t.admin.get(`/admin/customers?created_at[$lt]=${encodeURIComponent(zed.created_at)}&q=list.test`)
    ).json();
    expect(medusaForm.count).toBe(0);

    const paged = (await t.admin.get("/admin/customers?q=list.test&order=-email&limit=1&offset=1&fields=email")).json();
    expect(paged).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(paged.customers).toEqual([{ id: yan.id, email: "yan@list.test" }]);
  });

  it("manages addresses: create, update, delete, required fields and country code validated, foreign address 404", async () => {
    const owner = await createCustomer({ email: "addr@example.com" });
    const stranger = await createCustomer({ email: "stranger@example.com" });

    const created = await t.admin.post(`/admin/customers/${owner.id}/addresses`, { ...address, first_name: "Ana" });
    expect(created.statusCode).toBe(200);
    const [addr] = created.json().customer.addresses;
    expect(addr).toMatchObject({
      customer_id: owner.id,
      country_code: "de",
      city: "Berlin",
      first_name: "Ana",
      is_default_billing: false,
    });
    expect(addr.id).toMatch(/^cuaddr_/);

    for (const body of [
      { ...address, address_1: undefined },
      { ...address, city: "" },
      { ...address, postal_code: undefined },
      { ...address, country_code: "DEU" },
      { ...address, country_code: "d" },
      { ...address, country_code: "1x" },
      { ...address, extra: true },
    ]) {
      const res = await t.admin.post(`/admin/customers/${owner.id}/addresses`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get(`/admin/customers/${owner.id}`)).json().customer.addresses).toHaveLength(1);

    const updated = await t.admin.post(`/admin/customers/${owner.id}/addresses/${addr.id}`, {
      city: "Hamburg",
      country_code: "FR",
    });
    expect(updated.json().customer.addresses[0]).toMatchObject({
      city: "Hamburg",
      country_code: "fr",
      address_1: "1 Main St",
    });
    expect((await t.admin.post(`/admin/customers/${owner.id}/addresses/${addr.id}`, { city: "" })).statusCode).toBe(
      400,
    );

    // Through another customer's path, the address does not exist.
    const foreign = await t.admin.post(`/admin/customers/${stranger.id}/addresses/${addr.id}`, { city: "Paris" });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().type).toBe("not_found");
    expect((await t.admin.delete(`/admin/customers/${stranger.id}/addresses/${addr.id}`)).statusCode).toBe(404);
    expect((await t.admin.post(`/admin/customers/cus_missing/addresses`, address)).statusCode).toBe(404);

    const removed = await t.admin.delete(`/admin/customers/${owner.id}/addresses/${addr.id}`);
    expect(removed.json()).toMatchObject({
      id: addr.id,
      object: "customer_address",
      deleted: true,
      parent: { customer: { id: owner.id, addresses: [] } },
    });
    expect((await t.admin.delete(`/admin/customers/${owner.id}/addresses/${addr.id}`)).statusCode).toBe(404);
  });

  it("requires an admin: 401 without credentials, 403 for a customer token", async () => {
    expect((await t.store.get("/admin/customers")).statusCode).toBe(401);
    const res = await t.customer("cus_x").post("/admin/customers", { email: "x@y.zz" });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe("not_allowed");
  });
});

describe("admin customer groups", () => {
  it("CRUD with unique live names", async () => {
    const created = await t.admin.post("/admin/customer-groups", { name: "Wholesale", metadata: { tier: 1 } });
    expect(created.statusCode).toBe(200);
    const group = created.json().customer_group;
    expect(group).toMatchObject({ name: "Wholesale", metadata: { tier: 1 }, created_by: "user_admin_1" });
    expect(group.id).toMatch(/^cusgroup_/);
    expect((await t.admin.post("/admin/customer-groups", { name: "Wholesale" })).statusCode).toBe(409);
    expect(
      (await t.admin.post(`/admin/customer-groups/${group.id}`, { name: "Trade" })).json().customer_group.name,
    ).toBe("Trade");
    expect((await t.admin.get("/admin/customer-groups?q=tra")).json()).toMatchObject({
      count: 1,
      customer_groups: [{ id: group.id }],
    });
    expect((await t.admin.get(`/admin/customer-groups/${group.id}`)).json().customer_group.name).toBe("Trade");
    for (const body of [{}, { name: "" }, { name: 1 }, { name: "x", y: 1 }])
      expect((await t.admin.post("/admin/customer-groups", body)).statusCode).toBe(400);
    expect((await t.admin.delete(`/admin/customer-groups/${group.id}`)).json()).toEqual({
      id: group.id,
      object: "customer_group",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/customer-groups/${group.id}`)).statusCode).toBe(404);
    expect((await t.admin.post("/admin/customer-groups", { name: "Wholesale" })).statusCode).toBe(200);
  });

  it("adds and removes members with {customer_ids} and Medusa's {add, remove}; unknown ids → 400 and nothing changed", async () => {
    const group = (await t.admin.post("/admin/customer-groups", { name: "Members" })).json().customer_group;
    const a = await createCustomer({ email: "member-a@example.com" });
    const b = await createCustomer({ email: "member-b@example.com" });
    const inGroup = async () =>
      (await t.admin.get(`/admin/customers?groups=${group.id}&order=email`))
        .json()
        .customers.map((c: { id: string }) => c.id);

    const added = await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { customer_ids: [a.id] });
    expect(added.statusCode).toBe(200);
    expect(added.json().customer_group.id).toBe(group.id);
    expect(await inGroup()).toEqual([a.id]);
    // Adding twice is harmless.
    expect(
      (await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { customer_ids: [a.id] })).statusCode,
    ).toBe(200);

    const unknown = await t.admin.post(`/admin/customer-groups/${group.id}/customers`, {
      customer_ids: [b.id, "cus_nope"],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ type: "invalid_data" });
    expect(unknown.json().message).toContain("cus_nope");
    expect(await inGroup()).toEqual([a.id]);

    expect(
      (await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { add: [b.id], remove: [a.id] })).statusCode,
    ).toBe(200);
    expect(await inGroup()).toEqual([b.id]);
    expect((await t.admin.get(`/admin/customers/${b.id}`)).json().customer.groups).toMatchObject([
      { id: group.id, name: "Members" },
    ]);

    expect(
      (await t.admin.delete(`/admin/customer-groups/${group.id}/customers`, { customer_ids: ["cus_nope"] })).statusCode,
    ).toBe(400);
    expect(await inGroup()).toEqual([b.id]);
    expect(
      (await t.admin.delete(`/admin/customer-groups/${group.id}/customers`, { customer_ids: [b.id] })).statusCode,
    ).toBe(200);
    expect(await inGroup()).toEqual([]);

    expect((await t.admin.post(`/admin/customer-groups/${group.id}/customers`, {})).statusCode).toBe(400);
    expect((await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { customer_ids: "x" })).statusCode).toBe(
      400,
    );
    expect(
      (await t.admin.post(`/admin/customer-groups/cusgroup_missing/customers`, { customer_ids: [a.id] })).statusCode,
    ).toBe(404);
    expect(await t.app.modules.customer.groupIdsOfCustomer(b.id)).toEqual([]);
    await t.admin.post(`/admin/customer-groups/${group.id}/customers`, { customer_ids: [b.id] });
    expect(await t.app.modules.customer.groupIdsOfCustomer(b.id)).toEqual([group.id]);
  });

  it("POST /admin/customers/{id}/customer-groups {add, remove} edits one customer's groups (Medusa's form)", async () => {
    const gold = (await t.admin.post("/admin/customer-groups", { name: "Gold" })).json().customer_group;
    const silver = (await t.admin.post("/admin/customer-groups", { name: "Silver" })).json().customer_group;
    const c = await createCustomer({ email: "tiered@example.com" });
    const added = await t.admin.post(`/admin/customers/${c.id}/customer-groups`, { add: [gold.id, silver.id] });
    expect(added.statusCode).toBe(200);
    expect(added.json().customer.id).toBe(c.id);
    expect(
      added
        .json()
        .customer.groups.map((g: { name: string }) => g.name)
        .sort(),
    ).toEqual(["Gold", "Silver"]);

    const swapped = await t.admin.post(`/admin/customers/${c.id}/customer-groups`, { remove: [gold.id] });
    expect(swapped.json().customer.groups.map((g: { id: string }) => g.id)).toEqual([silver.id]);

    const groupsOf = () => t.app.modules.customer.groupIdsOfCustomer(c.id);
    for (const body of [{}, { add: "x" }, { add: [1] }, { add: [gold.id], extra: true }]) {
      const res = await t.admin.post(`/admin/customers/${c.id}/customer-groups`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const unknown = await t.admin.post(`/admin/customers/${c.id}/customer-groups`, { add: [gold.id, "cusgroup_nope"] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain("cusgroup_nope");
    expect(await groupsOf()).toEqual([silver.id]);
    const missing = await t.admin.post(`/admin/customers/cus_nope/customer-groups`, { add: [gold.id] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe("not_found");
    const asCustomer = await t.app.inject({
      method: "POST",
      url: `/admin/customers/${c.id}/customer-groups`,
      headers: await t.customerHeaders(c.id),
      payload: { add: [gold.id] },
    });
    expect(asCustomer.statusCode).toBe(403);
    expect(await groupsOf()).toEqual([silver.id]);
  });
});

describe("admin customer groups: a customer's groups (the dashboard's customer page)", () => {
  it("filters by customers[id] and answers the members with fields=+customers.id or *customers", async () => {
    const ana = (await t.admin.post("/admin/customers", { email: "ana.groups@example.com" })).json().customer;
    const ben = (await t.admin.post("/admin/customers", { email: "ben.groups@example.com", first_name: "Ben" })).json()
      .customer;
    const gold = (await t.admin.post("/admin/customer-groups", { name: "Gold members" })).json().customer_group;
    const silver = (await t.admin.post("/admin/customer-groups", { name: "Silver members" })).json().customer_group;
    await t.admin.post("/admin/customer-groups", { name: "Nobody's" });
    await t.admin.post(`/admin/customer-groups/${gold.id}/customers`, { customer_ids: [ana.id, ben.id] });
    await t.admin.post(`/admin/customer-groups/${silver.id}/customers`, { customer_ids: [ben.id] });

    const anas = await t.admin.get(
      `/admin/customer-groups?limit=10&offset=0&customers[id]=${ana.id}&fields=%2Bcustomers.id`,
    );
    expect(anas.statusCode, anas.body).toBe(200);
    expect(anas.json()).toMatchObject({
      count: 1,
      customer_groups: [{ id: gold.id, name: "Gold members", customers: [{ id: ana.id }, { id: ben.id }] }],
    });
    expect(anas.json().customer_groups[0].customers[0]).toEqual({ id: ana.id });
    const bens = (await t.admin.get(`/admin/customer-groups?customers[id][0]=${ben.id}&order=name`)).json();
    expect(bens.customer_groups.map((g: { id: string }) => g.id)).toEqual([gold.id, silver.id]);
    expect(bens.customer_groups[0]).not.toHaveProperty("customers");
    expect((await t.admin.get("/admin/customer-groups?customers[id]=cus_nobody")).json().count).toBe(0);

    const whole = (await t.admin.get(`/admin/customer-groups/${silver.id}?fields=*customers`)).json().customer_group;
    expect(whole.customers).toEqual([
      expect.objectContaining({ id: ben.id, email: "ben.groups@example.com", first_name: "Ben" }),
    ]);

    await expectInvalidData(
      t.admin,
      "/admin/customer-groups?",
      "customers[email]=x",
      "customers=cus_1",
      "customers[id][0][x]=1",
    );
  });
});
