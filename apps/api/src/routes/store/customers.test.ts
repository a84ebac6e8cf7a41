import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const address = { address_1: "1 Main St", city: "Berlin", postal_code: "10115", country_code: "de" };

async function login(email: string, password: string): Promise<Headers> {
  const res = await t.store.post("/auth/customer/emailpass", { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return bearer(res.json().token);
}

/** Registers in one call (seed form) and signs in. */
async function signUp(email: string, password = "secret-pass-1"): Promise<{ id: string; headers: Headers }> {
  const res = await t.store.post("/store/customers", { email, password, first_name: "First" });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().customer.id, headers: await login(email, password) };
}

async function adminCount(): Promise<number> {
  return (await t.store.get("/admin/customers?limit=0", await t.adminHeaders())).json().count;
}

describe("store registration", () => {
  it("seed form: email and password create the identity and the customer (has_account true); the customer then signs in", async () => {
    const res = await t.store.post("/store/customers", {
      email: "Seed@Example.com",
      password: "pw-123456",
      first_name: "Ana",
      company: "Acme",
    });
    expect(res.statusCode).toBe(200);
    const customer = res.json().customer;
    expect(customer).toMatchObject({
      email: "seed@example.com",
      first_name: "Ana",
      company: "Acme",
      company_name: "Acme",
      has_account: true,
      addresses: [],
    });
    // Store views never carry admin-only or secret fields.
    expect(Object.keys(customer)).not.toContain("groups");
    expect(Object.keys(customer)).not.toContain("created_by");
    expect(JSON.stringify(res.json())).not.toContain("pw-123456");

    const headers = await login("seed@example.com", "pw-123456");
    const me = await t.store.get("/store/customers/me", headers);
    expect(me.statusCode).toBe(200);
    expect(me.json().customer.id).toBe(customer.id);
  });

  it("Medusa form: a registration token, then POST /store/customers without password links the customer", async () => {
    const registered = await t.store.post("/auth/customer/emailpass/register", {
      email: "medusa@example.com",
      password: "pw-abcdef",
    });
    expect(registered.statusCode).toBe(200);
    const registration = bearer(registered.json().token);
    // The registration token is not a customer token yet.
    expect((await t.store.get("/store/customers/me", registration)).statusCode).toBe(403);

    const res = await t.store.post(
      "/store/customers",
      { email: "medusa@example.com", last_name: "Lopez" },
      registration,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().customer).toMatchObject({ email: "medusa@example.com", last_name: "Lopez", has_account: true });

    // The same registration token cannot create a second customer.
    const again = await t.store.post("/store/customers", { email: "medusa2@example.com" }, registration);
    expect(again.statusCode).toBe(409);

    const headers = await login("medusa@example.com", "pw-abcdef");
    expect((await t.store.get("/store/customers/me", headers)).json().customer.id).toBe(res.json().customer.id);
  });

  it("refuses a request already authenticated as a customer with 400, and other bad registrations with 4xx, writing nothing", async () => {
    const { headers } = await signUp("already@example.com");
    const before = await adminCount();
    const authed = await t.store.post(
      "/store/customers",
      { email: "another@example.com", password: "pw-xyz123" },
      headers,
    );
    expect(authed.statusCode).toBe(400);
    expect(authed.json()).toEqual({ type: "invalid_data", message: "Request already authenticated as a customer." });

    const bad: Array<[unknown, number]> = [
      [{ email: "not-an-email", password: "pw" }, 400],
      [{ password: "pw" }, 400],
      [{ email: "nopass@example.com" }, 400],
      [{ email: "x@example.com", password: "" }, 400],
      [{ email: "x@example.com", password: "pw-long-enough", has_account: false }, 400],
      [{ email: "x@example.com", password: 12345678 }, 400],
      [{ email: "already@example.com", password: "other-pass" }, 409],
    ];
    for (const [body, status] of bad) {
      const res = await t.store.post("/store/customers", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(typeof res.json().type).toBe("string");
      expect(typeof res.json().message).toBe("string");
    }
    const admin = await t.store.post(
      "/store/customers",
      { email: "adm@example.com", password: "pw-123456" },
      await t.adminHeaders(),
    );
    expect(admin.statusCode).toBe(403);
    const forged = await t.store.post(
      "/store/customers",
      { email: "forged@example.com", password: "pw-123456" },
      bearer("not.a.jwt"),
    );
    expect(forged.statusCode).toBe(401);
    expect(await adminCount()).toBe(before);
    // The failed registrations left no identity behind either: the email is still free.
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "forged@example.com", password: "pw-123456" }))
        .statusCode,
    ).toBe(400);
  });
});

describe("store customer account", () => {
  let ana: { id: string; headers: Headers };
  let bob: { id: string; headers: Headers };
  beforeAll(async () => {
    ana = await signUp("ana.me@example.com");
    bob = await signUp("bob.me@example.com");
  });

  it("GET/POST /store/customers/me read and change only the caller's record", async () => {
    const me = await t.store.get("/store/customers/me", ana.headers);
    expect(me.json().customer).toMatchObject({ id: ana.id, email: "ana.me@example.com" });
    const updated = await t.store.post(
      "/store/customers/me",
      { last_name: "Silva", company_name: "Ana Co", metadata: { a: 1 } },
      ana.headers,
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json().customer).toMatchObject({
      id: ana.id,
      last_name: "Silva",
      company: "Ana Co",
      metadata: { a: 1 },
    });
    expect((await t.store.get("/store/customers/me", bob.headers)).json().customer).toMatchObject({
      id: bob.id,
      last_name: null,
      metadata: null,
    });
    expect((await t.store.get("/store/customers/me?fields=email", ana.headers)).json().customer).toEqual({
      id: ana.id,
      email: "ana.me@example.com",
    });

    for (const body of [{ email: "nope" }, { has_account: false }, { first_name: 1 }, { id: bob.id }]) {
      const res = await t.store.post("/store/customers/me", body, ana.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // A changed email needs proof of the new address (customers.email.test.ts): refused, saying how, whoever holds it.
    for (const email of ["bob.me@example.com", "nobody.yet@example.com"]) {
      const refused = await t.store.post("/store/customers/me", { email, first_name: "Changed" }, ana.headers);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ type: "invalid_data" });
      expect(refused.json().message).toContain("POST /store/customers/me/email");
    }
    expect((await t.store.get("/store/customers/me", ana.headers)).json().customer).toMatchObject({
      email: "ana.me@example.com",
      first_name: "First",
    });
    expect((await t.store.get("/store/customers/me", bob.headers)).json().customer.email).toBe("bob.me@example.com");
    // The account's own address (any case) is no change: accepted with the other fields.
    const same = await t.store.post(
      "/store/customers/me",
      { email: "ANA.me@example.com", phone: "+351 1" },
      ana.headers,
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().customer).toMatchObject({ email: "ana.me@example.com", phone: "+351 1" });
  });

  it("needs a customer token on every /me route: 401 without or with a bad one, 403 for an admin", async () => {
    const admin = await t.adminHeaders();
    const routes: Array<["GET" | "POST" | "DELETE", string, unknown]> = [
      ["GET", "/store/customers/me", undefined],
      ["POST", "/store/customers/me", { first_name: "x" }],
      ["GET", "/store/customers/me/addresses", undefined],
      ["POST", "/store/customers/me/addresses", address],
      ["POST", "/store/customers/me/addresses/cuaddr_x", { city: "x" }],
      ["DELETE", "/store/customers/me/addresses/cuaddr_x", undefined],
      ["POST", "/store/customers/me/password", { old_password: "a", new_password: "b-new-password" }],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json().type).toBe("unauthorized");
      const forged = await t.app.inject({
        method,
        url,
        headers: bearer("eyJhbGciOiJub25lIn0.e30."),
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(forged.statusCode).toBe(401);
      const asAdmin = await t.app.inject({
        method,
        url,
        headers: admin,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(asAdmin.statusCode, `${method} ${url} as admin`).toBe(403);
      expect(asAdmin.json().type).toBe("not_allowed");
    }
  });

  it("addresses: create with defaults, a new default clears the previous one, update, list, delete", async () => {
    const first = await t.store.post(
      "/store/customers/me/addresses",
      { ...address, is_default_shipping: true, is_default_billing: true, address_name: "Home" },
      ana.headers,
    );
    expect(first.statusCode).toBe(200);
    const customer = first.json().customer;
    expect(customer.id).toBe(ana.id);
    const home = customer.addresses[0];
    expect(home).toMatchObject({
      address_name: "Home",
      is_default_shipping: true,
      is_default_billing: true,
      customer_id: ana.id,
      country_code: "de",
    });
    expect(customer).toMatchObject({ default_shipping_address_id: home.id, default_billing_address_id: home.id });

    const second = await t.store.post(
      "/store/customers/me/addresses",
      { ...address, address_1: "2 Side St", country_code: "FR", is_default_shipping: true },
      ana.headers,
    );
    const byLine = (list: Array<{ address_1: string }>, line: string) =>
      list.find((a) => a.address_1 === line) as Record<string, unknown>;
    const after = second.json().customer;
    expect(byLine(after.addresses, "1 Main St")).toMatchObject({
      is_default_shipping: false,
      is_default_billing: true,
    });
    const work = byLine(after.addresses, "2 Side St");
    expect(work).toMatchObject({ is_default_shipping: true, is_default_billing: false, country_code: "fr" });
    expect(after).toMatchObject({ default_shipping_address_id: work.id, default_billing_address_id: home.id });

    const billing = await t.store.post(
      `/store/customers/me/addresses/${work.id}`,
      { is_default_billing: true, city: "Paris" },
      ana.headers,
    );
    expect(billing.statusCode).toBe(200);
    expect(byLine(billing.json().customer.addresses, "1 Main St")).toMatchObject({ is_default_billing: false });
    expect(byLine(billing.json().customer.addresses, "2 Side St")).toMatchObject({
      is_default_billing: true,
      city: "Paris",
    });

    const list = await t.store.get("/store/customers/me/addresses?limit=1", ana.headers);
    expect(list.json()).toMatchObject({ count: 2, limit: 1, offset: 0 });
    expect(list.json().addresses).toHaveLength(1);
    expect((await t.store.get(`/store/customers/me/addresses/${work.id}`, ana.headers)).json().address.id).toBe(
      work.id,
    );

    const removed = await t.store.delete(`/store/customers/me/addresses/${home.id}`, undefined, ana.headers);
    expect(removed.json()).toMatchObject({
      id: home.id,
      object: "address",
      deleted: true,
      parent: { customer: { id: ana.id } },
    });
    expect((await t.store.get("/store/customers/me/addresses", ana.headers)).json().count).toBe(1);
  });

  it("rejects bad addresses (missing required fields, bad country codes, unknown fields) and writes nothing", async () => {
    const before = (await t.store.get("/store/customers/me/addresses", bob.headers)).json().count;
    const bad = [
      { city: "Berlin", postal_code: "1", country_code: "de" },
      { address_1: "x", postal_code: "1", country_code: "de" },
      { address_1: "x", city: "y", country_code: "de" },
      { address_1: "x", city: "y", postal_code: "1" },
      { ...address, country_code: "deu" },
      { ...address, country_code: "d" },
      { ...address, country_code: "12" },
      { ...address, country_code: 49 },
      { ...address, is_default_shipping: "yes" },
      { ...address, customer_id: ana.id },
    ];
    for (const body of bad) {
      const res = await t.store.post("/store/customers/me/addresses", body, bob.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.store.get("/store/customers/me/addresses", bob.headers)).json().count).toBe(before);
  });

  it("someone else's address id is 404 for read, update and delete, and stays unchanged", async () => {
    const created = await t.store.post("/store/customers/me/addresses", { ...address, city: "Lisbon" }, bob.headers);
    const bobs = created.json().customer.addresses.find((a: { city: string }) => a.city === "Lisbon");
    for (const res of [
      await t.store.get(`/store/customers/me/addresses/${bobs.id}`, ana.headers),
      await t.store.post(`/store/customers/me/addresses/${bobs.id}`, { city: "Hacked" }, ana.headers),
      await t.store.delete(`/store/customers/me/addresses/${bobs.id}`, undefined, ana.headers),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe("not_found");
    }
    const mine = (await t.store.get(`/store/customers/me/addresses/${bobs.id}`, bob.headers)).json().address;
    expect(mine).toMatchObject({ id: bobs.id, city: "Lisbon", customer_id: bob.id });
    expect(
      (await t.store.get("/store/customers/me", ana.headers))
        .json()
        .customer.addresses.map((a: { id: string }) => a.id),
    ).not.toContain(bobs.id);
  });

  it("POST /store/customers/me/password: wrong old password is 400; the new one works and the old one no longer does", async () => {
    const carol = await signUp("carol@example.com", "old-pass-1");
    const wrong = await t.store.post(
      "/store/customers/me/password",
      { old_password: "nope", new_password: "new-pass-1" },
      carol.headers,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().type).toBe("invalid_data");
    for (const body of [
      {},
      { old_password: "old-pass-1" },
      { old_password: "old-pass-1", new_password: "" },
      { old_password: "old-pass-1", new_password: "x", extra: 1 },
    ]) {
      expect((await t.store.post("/store/customers/me/password", body, carol.headers)).statusCode).toBe(400);
    }
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "carol@example.com", password: "old-pass-1" }))
        .statusCode,
    ).toBe(200);

    const changed = await t.store.post(
      "/store/customers/me/password",
      { old_password: "old-pass-1", new_password: "new-pass-1" },
      carol.headers,
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json().customer.id).toBe(carol.id);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "carol@example.com", password: "old-pass-1" }))
        .statusCode,
    ).toBe(400);
    const signIn = await t.store.post("/auth/customer/emailpass", {
      email: "carol@example.com",
      password: "new-pass-1",
    });
    expect(signIn.statusCode).toBe(200);
    // The change ended every token signed before it, the one that made it included; the new sign-in's works.
    const stale = await t.store.get("/store/customers/me", carol.headers);
    expect(stale.statusCode).toBe(401);
    expect(stale.json().type).toBe("unauthorized");
    const fresh = bearer(signIn.json().token);
    expect((await t.store.get("/store/customers/me", fresh)).json().customer.id).toBe(carol.id);
    // Another customer's old password does not open this account.
    expect(
      (
        await t.store.post(
          "/store/customers/me/password",
          { old_password: "secret-pass-1", new_password: "x-1-new-password" },
          fresh,
        )
      ).statusCode,
    ).toBe(400);
  });
});
