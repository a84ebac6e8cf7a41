import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { useTestApp } from "../../testing";

const t = useTestApp({}, { adminId: "user_admin" });

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`${token}:`).toString("base64")}` });

describe("secret API keys", () => {
  it("creates a key whose token is shown once and authenticates by header, query and Basic until revoked", async () => {
    const created = await t.admin.post("/admin/api-keys", { title: "CI", type: "secret" });
    expect(created.statusCode).toBe(200);
    const key = created.json().api_key;
    expect(key).toMatchObject({ title: "CI", type: "secret", created_by: "user_admin", revoked_at: null });
    expect(key.token).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(key.redacted).toMatch(/^sk_[0-9a-f]{3}\*\*\*[0-9a-f]{3}$/);
    expect(key).not.toHaveProperty("token_hash");
    expect(new Date(key.created_at).toISOString()).toBe(key.created_at);

    const retrieved = (await t.admin.get(`/admin/api-keys/${key.id}`)).json().api_key;
    expect(retrieved).not.toHaveProperty("token");
    const listed = (await t.admin.get("/admin/api-keys?type=secret")).json();
    expect(listed.count).toBe(1);
    expect(listed.api_keys[0]).not.toHaveProperty("token");
    expect(JSON.stringify(listed)).not.toContain(key.token.slice(6, -3));

    for (const headers of [{ "x-service-access-token": key.token }, basic(key.token)]) {
      expect((await t.app.inject({ method: "GET", url: "/admin/api-keys", headers })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: "GET", url: `/admin/api-keys?api_token=${key.token}` })).statusCode).toBe(200);
    // The key acts as itself: resources it creates name it.
    const viaKey = await t.app.inject({
      method: "POST",
      url: "/admin/api-keys",
      headers: { "x-service-access-token": key.token },
      payload: { title: "Web", type: "publishable" },
    });
    expect(viaKey.json().api_key.created_by).toBe(key.id);
    // /users/me: the key is not a user (as Medusa).
    expect(
      (await t.app.inject({ method: "GET", url: "/admin/users/me", headers: { "x-service-access-token": key.token } }))
        .statusCode,
    ).toBe(404);

    const revoked = await t.admin.post(`/admin/api-keys/${key.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().api_key).toMatchObject({ id: key.id, revoked_by: "user_admin" });
    expect(revoked.json().api_key.revoked_at).toEqual(expect.any(String));
    for (const headers of [{ "x-service-access-token": key.token }, basic(key.token)]) {
      const res = await t.app.inject({ method: "GET", url: "/admin/api-keys", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe("unauthorized");
    }
    expect((await t.app.inject({ method: "GET", url: `/admin/api-keys?api_token=${key.token}` })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/admin/api-keys",
          headers: { "x-service-access-token": "sk_unknown" },
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.admin.post(`/admin/api-keys/${key.id}/revoke`)).statusCode).toBe(400);
  });

  it("keeps several secret keys active at once: each works, revoking one leaves the others working", async () => {
    const create = async (title: string) => {
      const res = await t.admin.post("/admin/api-keys", { title, type: "secret" });
      expect(res.statusCode).toBe(200);
      return res.json().api_key as { id: string; token: string };
    };
    const [old, rotated, third] = [await create("Old"), await create("Rotated"), await create("Third")];
    expect(new Set([old.token, rotated.token, third.token]).size).toBe(3);
    const as = (key: { token: string }) => ({ "x-service-access-token": key.token });
    for (const key of [old, rotated, third])
      expect((await t.store.get("/admin/api-keys", as(key))).statusCode).toBe(200);

    expect((await t.admin.post(`/admin/api-keys/${old.id}/revoke`)).statusCode).toBe(200);
    const refused = await t.store.get("/admin/api-keys", as(old));
    expect(refused.statusCode).toBe(401);
    expect(refused.json().type).toBe("unauthorized");
    // The others still work; a fourth is made by the admin (a key cannot make secret keys).
    expect((await t.store.get("/admin/api-keys", as(rotated))).statusCode).toBe(200);
    const fourth = await create("Fourth");
    expect((await t.store.get("/admin/api-keys", basic(third.token))).statusCode).toBe(200);

    // The list shows every active secret key, never a secret token.
    const listed = await t.admin.get("/admin/api-keys?type=secret&revoked=false&limit=100");
    const ids = listed.json().api_keys.map((k: { id: string }) => k.id);
    expect(ids).toEqual(expect.arrayContaining([rotated.id, third.id, fourth.id]));
    expect(ids).not.toContain(old.id);
    const body =
      listed.body +
      (await t.admin.get("/admin/api-keys?limit=100")).body +
      (await t.admin.get(`/admin/api-keys/${rotated.id}`)).body;
    for (const key of [old, rotated, third, fourth]) expect(body).not.toContain(key.token.slice(6, -3));
    for (const key of listed.json().api_keys) expect(key).not.toHaveProperty("token");
  });

  it("a secret key cannot make, rename, revoke or delete secret keys, nor invite users: 403, nothing written", async () => {
    const key = (await t.admin.post("/admin/api-keys", { title: "Integration", type: "secret" })).json().api_key;
    const other = (await t.admin.post("/admin/api-keys", { title: "Other", type: "secret" })).json().api_key;
    const asKey = { "x-service-access-token": key.token };
    const before = (await t.admin.get("/admin/api-keys?type=secret&limit=100")).json().count;
    const forbidden = async (method: "POST" | "DELETE", url: string, payload?: object) => {
      const res = await t.app.inject({ method, url, headers: asKey, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().type).toBe("not_allowed");
    };
    await forbidden("POST", "/admin/api-keys", { title: "Heir", type: "secret" });
    await forbidden("POST", `/medusa/admin/api-keys`, { title: "Heir", type: "secret" });
    await forbidden("POST", `/admin/api-keys/${other.id}`, { title: "Mine" });
    await forbidden("POST", `/admin/api-keys/${other.id}/revoke`);
    await forbidden("POST", `/admin/api-keys/${key.id}/revoke`);
    await forbidden("DELETE", `/admin/api-keys/${other.id}`);
    await forbidden("POST", "/admin/invites", { email: "heir@example.com" });
    expect((await t.admin.get("/admin/api-keys?type=secret&limit=100")).json().count).toBe(before);
    expect((await t.admin.get(`/admin/api-keys/${other.id}`)).json().api_key).toMatchObject({
      title: "Other",
      revoked_at: null,
    });
    expect((await t.admin.get("/admin/invites?email=heir@example.com")).json().count).toBe(0);
    const invite = (await t.admin.post("/admin/invites", { email: "someone@example.com" })).json().invite;
    await forbidden("POST", `/admin/invites/${invite.id}/resend`);
    // Publishable keys are no credentials: a key manages them, and reads like an admin.
    const web = await t.app.inject({
      method: "POST",
      url: "/admin/api-keys",
      headers: asKey,
      payload: { title: "Web", type: "publishable" },
    });
    expect(web.statusCode).toBe(200);
    expect(web.json().api_key.created_by).toBe(key.id);
    expect((await t.store.get("/admin/invites", asKey)).statusCode).toBe(200);
  });

  it("a key dies with its maker's access: deleting the user who made it ends it", async () => {
    const maker = await t.adminHeaders("user_key_maker");
    const made = await t.app.inject({
      method: "POST",
      url: "/admin/api-keys",
      headers: maker,
      payload: { title: "Maker's", type: "secret" },
    });
    expect(made.statusCode).toBe(200);
    const asKey = { "x-service-access-token": made.json().api_key.token };
    expect((await t.store.get("/admin/api-keys", asKey)).statusCode).toBe(200);
    expect((await t.admin.delete("/admin/users/user_key_maker")).statusCode).toBe(200);
    const refused = await t.store.get("/admin/api-keys", asKey);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ type: "unauthorized" });
  });

  it("stores only a hash of the secret", async () => {
    const rows = await queryRows<{ token: string | null; token_hash: string; type: string }>(
      t.database.db,
      sql`select token, token_hash, type from api_key where type = 'secret'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.token).toBeNull();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("updates the title, deletes only revoked keys", async () => {
    const key = (await t.admin.post("/admin/api-keys", { title: "Temp", type: "secret" })).json().api_key;
    expect((await t.admin.post(`/admin/api-keys/${key.id}`, { title: "Renamed" })).json().api_key.title).toBe(
      "Renamed",
    );
    const early = await t.admin.delete(`/admin/api-keys/${key.id}`);
    expect(early.statusCode).toBe(403);
    expect(early.json().type).toBe("not_allowed");
    await t.admin.post(`/admin/api-keys/${key.id}/revoke`, {});
    const deleted = await t.admin.delete(`/admin/api-keys/${key.id}`);
    expect(deleted.json()).toEqual({ id: key.id, object: "api_key", deleted: true });
    expect((await t.admin.get(`/admin/api-keys/${key.id}`)).statusCode).toBe(404);
  });

  it("rejects bad input with 400 invalid_data and nothing written", async () => {
    const before = (await t.admin.get("/admin/api-keys")).json().count;
    for (const body of [
      {},
      { title: "x" },
      { title: "x", type: "root" },
      { title: "", type: "publishable" },
      { title: 5, type: "publishable" },
      { title: "x", type: "publishable", token: "pk_mine" },
    ]) {
      const res = await t.admin.post("/admin/api-keys", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/api-keys")).json().count).toBe(before);
    expect((await t.admin.get("/admin/api-keys?type=root")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/api-keys?order=token_hash")).statusCode).toBe(400);
    expect((await t.admin.post("/admin/api-keys/apk_missing", { title: "x" })).statusCode).toBe(404);
    expect((await t.admin.post("/admin/api-keys/apk_missing/revoke")).statusCode).toBe(404);
    expect((await t.admin.post("/admin/api-keys/apk_missing/revoke", { reason: "x" })).statusCode).toBe(400);
  });

  it("requires an admin: 401 without credentials, 403 for a customer", async () => {
    expect((await t.store.get("/admin/api-keys")).statusCode).toBe(401);
    const res = await t.customer("cus_1").post("/admin/api-keys", { title: "x", type: "secret" });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe("not_allowed");
  });
});

describe("publishable API keys", () => {
  it("lists the token in full and links sales channels that exist", async () => {
    const key = (await t.admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).json().api_key;
    expect(key.token).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(key.sales_channels).toEqual([]);
    const listed = (await t.admin.get("/admin/api-keys?type=publishable&q=storefront")).json();
    expect(listed).toMatchObject({ count: 1, api_keys: [{ id: key.id, token: key.token }] });

    const channel = (await t.admin.post("/admin/sales-channels", { name: "Web" })).json().sales_channel;
    const linked = await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().api_key.sales_channels).toEqual([{ id: channel.id }]);

    const missing = await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: ["sc_missing"] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain("sc_missing");
    for (const body of [{ add: "x" }, { add: [1] }, { other: [] }]) {
      expect((await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, body)).statusCode).toBe(400);
    }
    expect((await t.admin.get(`/admin/api-keys/${key.id}`)).json().api_key.sales_channels).toEqual([
      { id: channel.id },
    ]);

    const removed = await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { remove: [channel.id] });
    expect(removed.json().api_key.sales_channels).toEqual([]);
    expect((await t.admin.post("/admin/api-keys/apk_missing/sales-channels", { add: [] })).statusCode).toBe(404);
  });
});
