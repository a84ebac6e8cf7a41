import { beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, SignJWT } from "jose";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { useTestApp, withFailure } from "../../testing";

/**
 * Access ends with the credential: a token is honoured only while its
 * identity exists, is still linked to its actor and has not changed its credentials since the
 * token was signed, on every request.
 */
const t = useTestApp();
let admin: Record<string, string>;
beforeAll(async () => {
  admin = await t.adminHeaders("user_sessions_admin");
});

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const INVALID = { type: "invalid_data", message: "Invalid email or password" };

async function signIn(actor: "user" | "customer", email: string, password: string): Promise<Headers> {
  const res = await t.store.post(`/auth/${actor}/emailpass`, { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return bearer(res.json().token);
}

function expectUnauthorized(res: { statusCode: number; json(): { type: string } }) {
  expect(res.statusCode).toBe(401);
  expect(res.json().type).toBe("unauthorized");
}

async function newCustomer(email: string, password: string): Promise<{ id: string; headers: Headers }> {
  const res = await t.store.post("/store/customers", { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().customer.id, headers: await signIn("customer", email, password) };
}

describe("deleting an admin user ends its access", () => {
  it("its JWT answers 401 at once (reads and API key creation), its password no longer signs in, its email is free", async () => {
    const { user_id } = await createUserAccount(
      t.app.infra.engine,
      { email: "leaver@example.com", password: "pw-leaver-1" },
      { scryptLogN: t.config.scryptLogN },
    );
    const leaver = await signIn("user", "leaver@example.com", "pw-leaver-1");
    expect((await t.store.get("/admin/products", leaver)).statusCode).toBe(200);
    expect((await t.store.post("/admin/api-keys", { title: "Before", type: "secret" }, leaver)).statusCode).toBe(200);

    expect((await t.admin.delete(`/admin/users/${user_id}`)).json()).toEqual({
      id: user_id,
      object: "user",
      deleted: true,
    });

    expectUnauthorized(await t.store.get("/admin/products", leaver));
    const keys = await t.admin.get("/admin/api-keys?limit=100");
    const before = keys.json().count;
    const key = await t.store.post("/admin/api-keys", { title: "After", type: "secret" }, leaver);
    expectUnauthorized(key);
    expect((await t.store.get("/admin/api-keys?limit=100", admin)).json().count).toBe(before);
    expectUnauthorized(await t.store.get("/auth/token/refresh", leaver));
    expectUnauthorized(
      await t.store.post("/auth/emailpass/update", { email: "leaver@example.com", password: "taken-over" }, leaver),
    );
    // The password no longer signs in, as any admin or as a customer: the identity is gone.
    expect(
      (await t.store.post("/auth/user/emailpass", { email: "leaver@example.com", password: "pw-leaver-1" })).json(),
    ).toEqual(INVALID);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "leaver@example.com", password: "pw-leaver-1" })).json(),
    ).toEqual(INVALID);
    const identities = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from provider_identity where entity_id = 'leaver@example.com'`,
    );
    expect(identities[0]!.n).toBe(0);
    // The email can be given to a new admin, who signs in normally.
    await createUserAccount(
      t.app.infra.engine,
      { email: "leaver@example.com", password: "pw-successor-1" },
      { scryptLogN: t.config.scryptLogN },
    );
    expect(
      (await t.store.get("/admin/users/me", await signIn("user", "leaver@example.com", "pw-successor-1"))).json().user
        .email,
    ).toBe("leaver@example.com");
    expectUnauthorized(await t.store.get("/admin/products", leaver));
  });

  it("a customer sharing the identity keeps signing in; only the admin's tokens end", async () => {
    const { user_id } = await createUserAccount(
      t.app.infra.engine,
      { email: "both@example.com", password: "pw-both-1" },
      { scryptLogN: t.config.scryptLogN },
    );
    const shopper = await t.store.post(
      "/store/customers",
      { email: "both@example.com" },
      await signIn("customer", "both@example.com", "pw-both-1"),
    );
    expect(shopper.statusCode, shopper.body).toBe(200);
    const asAdmin = await signIn("user", "both@example.com", "pw-both-1");
    const asCustomer = await signIn("customer", "both@example.com", "pw-both-1");

    expect((await t.admin.delete(`/admin/users/${user_id}`)).statusCode).toBe(200);
    expectUnauthorized(await t.store.get("/admin/products", asAdmin));
    expect((await t.store.get("/store/customers/me", asCustomer)).json().customer.id).toBe(shopper.json().customer.id);
    expect(
      (await t.store.post("/auth/user/emailpass", { email: "both@example.com", password: "pw-both-1" })).json(),
    ).toEqual(INVALID);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "both@example.com", password: "pw-both-1" })).statusCode,
    ).toBe(200);
  });
});

describe("deleting a customer ends its access", () => {
  it("its token answers 401, its password no longer signs in, and the email can register again", async () => {
    const gone = await newCustomer("gone@example.com", "pw-gone-1");
    expect((await t.store.get("/store/customers/me", gone.headers)).statusCode).toBe(200);

    expect((await t.admin.delete(`/admin/customers/${gone.id}`)).json()).toEqual({
      id: gone.id,
      object: "customer",
      deleted: true,
    });

    expectUnauthorized(await t.store.get("/store/customers/me", gone.headers));
    expectUnauthorized(
      await t.store.post(
        "/store/customers/me/addresses",
        { address_1: "1 Main St", city: "Berlin", country_code: "de", postal_code: "10115" },
        gone.headers,
      ),
    );
    expectUnauthorized(await t.store.get("/auth/token/refresh", gone.headers));
    // Registering again with the dead token is refused too.
    expectUnauthorized(await t.store.post("/store/customers", { email: "gone@example.com" }, gone.headers));
    const login = await t.store.post("/auth/customer/emailpass", { email: "gone@example.com", password: "pw-gone-1" });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual(INVALID);
    expect((await t.store.get(`/admin/customers/${gone.id}`, admin)).statusCode).toBe(404);

    const again = await newCustomer("gone@example.com", "pw-again-1");
    expect(again.id).not.toBe(gone.id);
    expect((await t.store.get("/store/customers/me", again.headers)).json().customer.id).toBe(again.id);
    expectUnauthorized(await t.store.get("/store/customers/me", gone.headers));
  });

  it("a guest customer (no account) is deleted as before; unknown ids are 404 and nothing changes", async () => {
    const guest = await t.store.post("/admin/customers", { email: "guest@example.com" }, admin);
    expect(guest.statusCode).toBe(200);
    expect((await t.admin.delete(`/admin/customers/${guest.json().customer.id}`)).statusCode).toBe(200);
    const missing = await t.admin.delete("/admin/customers/cus_missing");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe("not_found");
    const someone = await newCustomer("someone@example.com", "pw-someone-1");
    expect(
      (await t.app.inject({ method: "DELETE", url: `/admin/customers/${someone.id}`, headers: someone.headers }))
        .statusCode,
    ).toBe(403);
    expect((await t.store.get("/store/customers/me", someone.headers)).statusCode).toBe(200);
  });

  it("is one saga: when its last step fails, the customer, its addresses, its link and its sign-in are all back", async () => {
    const kept = await newCustomer("kept@example.com", "pw-kept-1");
    await t.store.post(
      "/store/customers/me/addresses",
      { address_1: "1 Main St", city: "Berlin", country_code: "de", postal_code: "10115" },
      kept.headers,
    );
    const failed = await withFailure(t.database.db, "auth_identity", "DELETE", "true", () =>
      t.admin.delete(`/admin/customers/${kept.id}`),
    );
    expect(failed.statusCode).toBe(500);
    const me = await t.store.get("/store/customers/me", kept.headers);
    expect(me.statusCode).toBe(200);
    expect(me.json().customer.addresses).toHaveLength(1);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "kept@example.com", password: "pw-kept-1" })).statusCode,
    ).toBe(200);
    const [execution] = await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from workflow_executions where workflow_id = 'remove-customer-account' order by created_at desc limit 1`,
    );
    expect(execution!.state).toBe("compensated");
    // Run again without the failure, it completes.
    expect((await t.admin.delete(`/admin/customers/${kept.id}`)).statusCode).toBe(200);
    expectUnauthorized(await t.store.get("/store/customers/me", kept.headers));
  });
});

describe("changing or resetting a password ends older tokens", () => {
  it("POST /store/customers/me/password: older tokens answer 401, a sign-in with the new password works", async () => {
    const ana = await newCustomer("ana@example.com", "pw-ana-1");
    const otherDevice = await signIn("customer", "ana@example.com", "pw-ana-1");
    expect(
      (
        await t.store.post(
          "/store/customers/me/password",
          { old_password: "pw-ana-1", new_password: "pw-ana-2" },
          ana.headers,
        )
      ).statusCode,
    ).toBe(200);
    for (const headers of [ana.headers, otherDevice]) {
      expectUnauthorized(await t.store.get("/store/customers/me", headers));
      expectUnauthorized(await t.store.get("/auth/token/refresh", headers));
    }
    const fresh = await signIn("customer", "ana@example.com", "pw-ana-2");
    expect((await t.store.get("/store/customers/me", fresh)).json().customer.id).toBe(ana.id);
    const refreshed = await t.store.get("/auth/token/refresh", fresh);
    expect(refreshed.statusCode).toBe(200);
    expect((await t.store.get("/store/customers/me", bearer(refreshed.json().token))).statusCode).toBe(200);
  });

  it("POST /auth/emailpass/update (an admin's own password): older tokens answer 401 on admin routes", async () => {
    await createUserAccount(
      t.app.infra.engine,
      { email: "ops@example.com", password: "pw-ops-1" },
      { scryptLogN: t.config.scryptLogN },
    );
    const before = await signIn("user", "ops@example.com", "pw-ops-1");
    expect(
      (await t.store.post("/auth/emailpass/update", { email: "ops@example.com", password: "pw-ops-2" }, before))
        .statusCode,
    ).toBe(200);
    expectUnauthorized(await t.store.get("/admin/products", before));
    expectUnauthorized(await t.store.post("/admin/api-keys", { title: "x", type: "secret" }, before));
    expect((await t.store.get("/admin/products", await signIn("user", "ops@example.com", "pw-ops-2"))).statusCode).toBe(
      200,
    );
  });

  it("a password reset: tokens signed before it answer 401, one signed after works", async () => {
    const bo = await newCustomer("bo@example.com", "pw-bo-1-long");
    const [identityId] = await t.app.modules.auth.identityIdsOfActor("customer", bo.id);
    const { secret } = await t.app.modules.authTokens.issue({
      kind: "password_reset",
      actor_type: "customer",
      provider: "emailpass",
      ttlMs: 60_000,
      auth_identity_id: identityId!,
      entity_id: "bo@example.com",
    });
    const reset = await t.store.post("/auth/customer/emailpass/update", {
      email: "bo@example.com",
      token: secret,
      password: "pw-bo-2-long",
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expectUnauthorized(await t.store.get("/store/customers/me", bo.headers));
    expect(
      (await t.store.get("/store/customers/me", await signIn("customer", "bo@example.com", "pw-bo-2-long"))).statusCode,
    ).toBe(200);
  });

  it("a registration token follows the same rule", async () => {
    const registration = (
      await t.store.post("/auth/customer/emailpass/register", { email: "reg@example.com", password: "pw-reg-1" })
    ).json().token;
    await t.store.post(
      "/auth/emailpass/update",
      { email: "reg@example.com", password: "pw-reg-2" },
      bearer(registration),
    );
    const refused = await t.store.post("/store/customers", { email: "reg@example.com" }, bearer(registration));
    expectUnauthorized(refused);
    const next = (
      await t.store.post("/auth/customer/emailpass", { email: "reg@example.com", password: "pw-reg-2" })
    ).json().token;
    expect((await t.store.post("/store/customers", { email: "reg@example.com" }, bearer(next))).statusCode).toBe(200);
  });
});

describe("token shape", () => {
  it("every token carries the identity's credentials version; a validly signed token without it, or with a stale one, is 401", async () => {
    const { user_id, auth_identity_id } = await createUserAccount(
      t.app.infra.engine,
      { email: "shape@example.com", password: "pw-shape-1" },
      { scryptLogN: t.config.scryptLogN },
    );
    const { authorization } = await signIn("user", "shape@example.com", "pw-shape-1");
    expect(decodeJwt(authorization!.slice(7))).toMatchObject({
      actor_id: user_id,
      auth_identity_id,
      credentials_version: 1,
    });
    const claims = { actor_id: user_id, actor_type: "user", auth_identity_id, app_metadata: { user_id } };
    // Signed like a token from before credentials versions existed.
    const withoutVersion = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(t.config.jwt.secret);
    expectUnauthorized(await t.store.get("/admin/products", bearer(withoutVersion)));
    expectUnauthorized(
      await t.store.get("/admin/products", bearer(await t.app.tokens.sign({ ...claims, credentials_version: 2 }))),
    );
    // Another actor's id with this identity: not linked, refused.
    expectUnauthorized(
      await t.store.get(
        "/admin/products",
        bearer(await t.app.tokens.sign({ ...claims, actor_id: "user_someone_else", credentials_version: 1 })),
      ),
    );
    expect(
      (await t.store.get("/admin/products", bearer(await t.app.tokens.sign({ ...claims, credentials_version: 1 }))))
        .statusCode,
    ).toBe(200);
  });
});
