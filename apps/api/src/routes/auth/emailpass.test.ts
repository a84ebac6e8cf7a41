import { beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, SignJWT } from "jose";
import { createUserAccount } from "@kasse/flows";
import { useTestApp } from "../../testing";

const t = useTestApp();
let userId: string;
const ADMIN = { email: "admin@example.com", password: "correct horse" };
beforeAll(async () => {
  ({ user_id: userId } = await createUserAccount(t.app.infra.engine, ADMIN, { scryptLogN: t.config.scryptLogN }));
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const INVALID = { type: "invalid_data", message: "Invalid email or password" };

describe("POST /auth/{actor_type}/emailpass", () => {
  it("signs an admin in: the token names the user, its identity and expires", async () => {
    const res = await t.store.post("/auth/user/emailpass", ADMIN);
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ actor_id: userId, actor_type: "user", app_metadata: { user_id: userId } });
    expect(claims.auth_identity_id).toMatch(/^authid_/);
    expect(claims.exp! - claims.iat!).toBe(24 * 3600);
    const me = await t.store.get("/admin/users/me", bearer(token));
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ id: userId, email: ADMIN.email });
  });

  it("answers a wrong password and an unknown email identically (400 invalid_data)", async () => {
    const wrong = await t.store.post("/auth/user/emailpass", { ...ADMIN, password: "wrong" });
    const unknown = await t.store.post("/auth/user/emailpass", {
      email: "nobody@example.com",
      password: ADMIN.password,
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(INVALID);
    }
  });

  it("refuses an admin identity as a customer it is not, and a customer identity as an admin", async () => {
    // An identity with no customer gets a registration token, as in Medusa (the storefront then creates the customer).
    const asCustomer = await t.store.post("/auth/customer/emailpass", ADMIN);
    expect(asCustomer.statusCode).toBe(200);
    expect(decodeJwt(asCustomer.json().token)).toMatchObject({ actor_id: "", actor_type: "customer" });
    await t.store.post("/auth/customer/emailpass/register", { email: "shopper@example.com", password: "pw-shopper" });
    const asAdmin = await t.store.post("/auth/user/emailpass", {
      email: "shopper@example.com",
      password: "pw-shopper",
    });
    expect(asAdmin.statusCode).toBe(400);
    expect(asAdmin.json()).toEqual(INVALID);
  });

  it("rejects malformed bodies and unknown actor types with 400 invalid_data", async () => {
    const bodies = [
      {},
      { email: ADMIN.email },
      { email: ADMIN.email, password: 5 },
      { ...ADMIN, extra: true },
      { email: "not-an-email", password: "x" },
      { email: ADMIN.email, password: "" },
    ];
    for (const body of bodies) {
      const res = await t.store.post("/auth/user/emailpass", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const actor = await t.store.post("/auth/admin/emailpass", ADMIN);
    expect(actor.statusCode).toBe(400);
    expect(actor.json().type).toBe("invalid_data");
  });

  it("POST /auth/emailpass signs a customer in", async () => {
    await t.store.post("/auth/emailpass/register", { email: "plain@example.com", password: "pw-plain" });
    const res = await t.store.post("/auth/emailpass", { email: "plain@example.com", password: "pw-plain" });
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().token)).toMatchObject({ actor_type: "customer", actor_id: "" });
    expect((await t.store.post("/auth/emailpass", { email: "plain@example.com", password: "nope" })).json()).toEqual(
      INVALID,
    );
  });
});

describe("registration", () => {
  it("returns a registration token (no actor yet) for customers and users, once per email", async () => {
    for (const [url, email] of [
      ["/auth/customer/emailpass/register", "new-customer@example.com"],
      ["/auth/emailpass/register", "new-customer-2@example.com"],
      ["/auth/user/emailpass/register", "invited@example.com"],
    ] as const) {
      const res = await t.store.post(url, { email, password: "pw-12345" });
      expect(res.statusCode).toBe(200);
      const claims = decodeJwt(res.json().token);
      expect(claims).toMatchObject({
        actor_id: "",
        actor_type: url.includes("/user/") ? "user" : "customer",
        app_metadata: {},
      });
      expect(claims.auth_identity_id).toMatch(/^authid_/);
    }
    const again = await t.store.post("/auth/customer/emailpass/register", {
      email: "NEW-customer@example.com",
      password: "other-password",
    });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ type: "unauthorized", message: "Identity with email already exists" });
    // A registered user identity with no user cannot sign in as an admin.
    expect(
      (await t.store.post("/auth/user/emailpass", { email: "invited@example.com", password: "pw-12345" })).json(),
    ).toEqual(INVALID);
  });

  it("rejects bad registration bodies without writing anything", async () => {
    for (const body of [
      { email: "x@example.com" },
      { email: "x@example.com", password: "pw-long-enough", first_name: "X" },
    ]) {
      const res = await t.store.post("/auth/customer/emailpass/register", body);
      expect(res.statusCode).toBe(400);
    }
    expect(
      (await t.store.post("/auth/customer/emailpass/register", { email: "x@example.com", password: "pw-long-enough" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("email verification (never required; docs/api.md)", () => {
  it("a new customer's login answers a token, never verification_required; the verification routes are not served (they fall on the sign-in route)", async () => {
    const { token } = (
      await t.store.post("/auth/customer/emailpass/register", {
        email: "unverified@example.com",
        password: "pw-unverified",
      })
    ).json();
    const login = await t.store.post("/auth/customer/emailpass", {
      email: "unverified@example.com",
      password: "pw-unverified",
    });
    expect(login.statusCode).toBe(200);
    expect(Object.keys(login.json())).toEqual(["token"]);
    for (const base of ["", "/medusa"]) {
      const request = await t.store.post(
        `${base}/auth/verification/request`,
        { entity_id: "unverified@example.com", entity_type: "email" },
        bearer(token),
      );
      const confirm = await t.store.post(`${base}/auth/verification/confirm`, { code: "made-up" });
      for (const res of [request, confirm]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().type).toBe("invalid_data");
        expect(res.json().message).toMatch(/actor_type/);
      }
    }
  });
});

describe("tokens", () => {
  const secret = () => t.config.jwt.secret;
  const claims = () => ({
    actor_id: userId,
    actor_type: "user",
    auth_identity_id: "authid_x",
    app_metadata: {},
    credentials_version: 1,
  });
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

  it("refuses alg none, a wrong key, an expired token, a tampered payload and garbage with 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims(), iat: now, exp: now + 3600 })}.`;
    const wrongKey = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret!!"));
    const expired = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(secret());
    const noExp = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).sign(secret());
    const good = await t.app.tokens.sign({ ...claims(), actor_type: "customer", actor_id: "cus_1" });
    const [header, , signature] = good.split(".");
    const tampered = `${header}.${b64({ ...claims(), exp: now + 3600 })}.${signature}`;
    for (const token of [none, wrongKey, expired, noExp, tampered, "garbage", "a.b.c"]) {
      const res = await t.store.get("/admin/users/me", bearer(token));
      expect(res.statusCode).toBe(401);
      expect(res.json().type).toBe("unauthorized");
    }
    expect((await t.store.get("/admin/users/me", bearer(expired))).json().message).toBe("Token expired");
  });

  it("answers 401 without credentials and 403 for a customer on admin routes", async () => {
    expect((await t.store.get("/admin/users/me")).statusCode).toBe(401);
    const customer = await t.store.get("/admin/users/me", await t.customerHeaders("cus_1"));
    expect(customer.statusCode).toBe(403);
    expect(customer.json().type).toBe("not_allowed");
  });

  it("GET /auth/token/refresh issues a fresh token from the identity as it is now", async () => {
    const { token } = (await t.store.post("/auth/user/emailpass", ADMIN)).json();
    const res = await t.store.get("/auth/token/refresh", bearer(token));
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token;
    expect(decodeJwt(fresh)).toMatchObject({
      actor_id: userId,
      actor_type: "user",
      auth_identity_id: decodeJwt(token).auth_identity_id,
    });
    expect((await t.store.get("/admin/users/me", bearer(fresh))).statusCode).toBe(200);

    // A registration token becomes the customer's token once the customer is linked.
    const registration = (
      await t.store.post("/auth/customer/emailpass/register", { email: "later@example.com", password: "pw-later" })
    ).json().token;
    await t.app.modules.auth.linkActor(decodeJwt(registration).auth_identity_id as string, "customer", "cus_later");
    expect(decodeJwt((await t.store.get("/auth/token/refresh", bearer(registration))).json().token)).toMatchObject({
      actor_id: "cus_later",
      actor_type: "customer",
    });

    expect((await t.store.get("/auth/token/refresh")).statusCode).toBe(401);
    expect((await t.store.get("/auth/token/refresh", bearer("garbage"))).statusCode).toBe(401);
    // A token whose identity does not exist.
    const orphan = await t.app.tokens.sign({
      actor_id: userId,
      actor_type: "user",
      auth_identity_id: "authid_missing",
      app_metadata: {},
      credentials_version: 1,
    });
    expect((await t.store.get("/auth/token/refresh", bearer(orphan))).statusCode).toBe(401);
  });

  it("POST /auth/token/refresh (Medusa's js-sdk form) answers the same; it takes no body fields", async () => {
    const { token } = (await t.store.post("/auth/user/emailpass", ADMIN)).json();
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/token/refresh",
      headers: { ...bearer(token), "content-type": "application/json" },
    });
    expect(res.statusCode).toBe(200);
    expect(decodeJwt(res.json().token)).toMatchObject({ actor_id: userId, actor_type: "user" });
    const extra = await t.store.post("/auth/token/refresh", { actor_id: "user_other" }, bearer(token));
    expect(extra.statusCode).toBe(400);
    expect(extra.json().type).toBe("invalid_data");
    expect((await t.store.post("/auth/token/refresh", {})).statusCode).toBe(401);
  });
});

describe("POST /auth/emailpass/update", () => {
  it("changes the caller's own password", async () => {
    await t.store.post("/auth/customer/emailpass/register", { email: "change@example.com", password: "old-password" });
    const token = (
      await t.store.post("/auth/customer/emailpass", { email: "change@example.com", password: "old-password" })
    ).json().token;
    expect(
      (await t.store.post("/auth/emailpass/update", { email: "change@example.com", password: "new-password" }))
        .statusCode,
    ).toBe(401);
    const other = await t.store.post(
      "/auth/emailpass/update",
      { email: ADMIN.email, password: "hijack-password" },
      bearer(token),
    );
    expect(other.statusCode).toBe(401);
    expect((await t.store.post("/auth/user/emailpass", ADMIN)).statusCode).toBe(200);
    expect(
      (await t.store.post("/auth/emailpass/update", { email: "change@example.com" }, bearer(token))).statusCode,
    ).toBe(400);

    const res = await t.store.post(
      "/auth/emailpass/update",
      { email: "change@example.com", password: "new-password" },
      bearer(token),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.auth_identity).toMatchObject({
      entity_id: "change@example.com",
      provider_identities: [{ provider: "emailpass", entity_id: "change@example.com" }],
    });
    expect(JSON.stringify(body)).not.toContain("scrypt");
    expect(body.auth_identity.provider_identities[0]).not.toHaveProperty("provider_metadata");
    expect(
      (
        await t.store.post("/auth/customer/emailpass", { email: "change@example.com", password: "old-password" })
      ).json(),
    ).toEqual(INVALID);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "change@example.com", password: "new-password" }))
        .statusCode,
    ).toBe(200);
  });
});

describe("a new password is 8 characters or more (NIST 800-63B), on every route that sets one", () => {
  const SHORT = /must NOT have fewer than 8 characters/;
  const refusedShort = (res: { statusCode: number; json(): { type: string; message: string } }, what: string) => {
    expect(res.statusCode, what).toBe(400);
    expect(res.json().type, what).toBe("invalid_data");
    expect(res.json().message, what).toMatch(SHORT);
  };

  it("registration (customer, user, the contract's form, the store's one-call form) writes nothing for a short one", async () => {
    for (const [url, email] of [
      ["/auth/customer/emailpass/register", "short-c@example.com"],
      ["/auth/user/emailpass/register", "short-u@example.com"],
      ["/auth/emailpass/register", "short-p@example.com"],
      ["/store/customers", "short-s@example.com"],
    ] as const) {
      for (const password of ["a", "1234567", "ab\u{1F600}defg"])
        refusedShort(await t.store.post(url, { email, password }), url);
      // None of them can sign in: nothing was registered.
      expect((await t.store.post("/auth/customer/emailpass", { email, password: "1234567" })).json()).toEqual(INVALID);
    }
    // Eight characters are enough, whatever they are.
    expect(
      (await t.store.post("/auth/customer/emailpass/register", { email: "eight@example.com", password: "12345678" }))
        .statusCode,
    ).toBe(200);
  });

  it("a change (auth update, the store's password route) keeps the old password for a short one", async () => {
    await t.store.post("/auth/customer/emailpass/register", { email: "keep@example.com", password: "keep-pass-1" });
    const signIn = await t.store.post("/auth/customer/emailpass", {
      email: "keep@example.com",
      password: "keep-pass-1",
    });
    const registration = bearer(signIn.json().token);
    refusedShort(
      await t.store.post("/auth/emailpass/update", { email: "keep@example.com", password: "short" }, registration),
      "update",
    );
    const customer = await t.store.post("/store/customers", { email: "keep@example.com" }, registration);
    expect(customer.statusCode).toBe(200);
    const session = bearer(
      (await t.store.post("/auth/customer/emailpass", { email: "keep@example.com", password: "keep-pass-1" })).json()
        .token,
    );
    refusedShort(
      await t.store.post(
        "/store/customers/me/password",
        { old_password: "keep-pass-1", new_password: "short" },
        session,
      ),
      "change",
    );
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "keep@example.com", password: "keep-pass-1" }))
        .statusCode,
    ).toBe(200);
  });

  it("the accounts made outside HTTP (CLI, first start) keep the rule too", async () => {
    await expect(
      createUserAccount(t.app.infra.engine, { email: "cli@example.com", password: "short" }, { scryptLogN: 10 }),
    ).rejects.toMatchObject({ type: "invalid_data", message: "A password must be at least 8 characters long" });
    await expect(
      t.app.modules.auth.register("emailpass", { body: { email: "module@example.com", password: "1234567" } }),
    ).rejects.toMatchObject({ type: "invalid_data", message: "A password must be at least 8 characters long" });
  });
});
