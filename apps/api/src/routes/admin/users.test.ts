import { beforeAll, describe, expect, it } from "vitest";
import { createUserAccount } from "@kasse/flows";
import { useTestApp } from "../../testing";

const t = useTestApp();
let userId: string;
let token: string;
beforeAll(async () => {
  ({ user_id: userId } = await createUserAccount(
    t.app.infra.engine,
    { email: "me@example.com", password: "pw-me-long", first_name: "Me" },
    { scryptLogN: 4 },
  ));
  token = (
    await t.app.inject({
      method: "POST",
      url: "/auth/user/emailpass",
      payload: { email: "me@example.com", password: "pw-me-long" },
    })
  ).json().token;
});

const as = () => ({ authorization: `Bearer ${token}` });

describe("admin users", () => {
  it("GET /admin/users/me answers the caller, without any credential field", async () => {
    const res = await t.app.inject({ method: "GET", url: "/admin/users/me", headers: as() });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      id: userId,
      email: "me@example.com",
      first_name: "Me",
      last_name: null,
      avatar_url: null,
      metadata: null,
    });
    expect(Object.keys(user).sort()).toEqual([
      "avatar_url",
      "created_at",
      "deleted_at",
      "email",
      "first_name",
      "id",
      "last_name",
      "metadata",
      "updated_at",
    ]);
    expect(
      (await t.app.inject({ method: "GET", url: "/admin/users/me?fields=email", headers: as() })).json().user,
    ).toEqual({ id: userId, email: "me@example.com" });
  });

  it("a token for a user that does not exist gets 404", async () => {
    // An identity linked to a user id with no user row: the token passes the session check, the user lookup does not.
    const identity = await t.app.modules.auth.createIdentity({ provider: "emailpass", entity_id: "gone@example.com" });
    const linked = await t.app.modules.auth.linkActor(identity.id, "user", "user_gone");
    const headers = {
      authorization: `Bearer ${await t.app.tokens.sign(t.app.modules.auth.claimsFor(linked, "user"))}`,
    };
    const res = await t.app.inject({ method: "GET", url: "/admin/users/me", headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe("not_found");
  });

  it("lists, retrieves and updates users; bad input is 400 and unknown ids 404", async () => {
    const list = await t.app.inject({ method: "GET", url: "/admin/users?q=me@", headers: as() });
    expect(list.json()).toMatchObject({ count: 1, offset: 0, limit: 15, users: [{ id: userId }] });
    expect(
      (await t.app.inject({ method: "GET", url: `/admin/users/${userId}`, headers: as() })).json().user.email,
    ).toBe("me@example.com");
    const updated = await t.app.inject({
      method: "POST",
      url: `/admin/users/${userId}`,
      headers: as(),
      payload: { last_name: "Self", metadata: { a: 1 } },
    });
    expect(updated.json().user).toMatchObject({ last_name: "Self", metadata: { a: 1 } });
    for (const payload of [{ email: "new@example.com" }, { first_name: 5 }, { unknown: true }]) {
      const res = await t.app.inject({ method: "POST", url: `/admin/users/${userId}`, headers: as(), payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(
      (await t.app.inject({ method: "GET", url: `/admin/users/${userId}`, headers: as() })).json().user.email,
    ).toBe("me@example.com");
    expect((await t.app.inject({ method: "GET", url: "/admin/users/user_missing", headers: as() })).statusCode).toBe(
      404,
    );
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/admin/users/user_missing",
          headers: as(),
          payload: { first_name: "x" },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("GET /admin/users/:id/auth-providers names the ways the user signs in; unknown ids 404", async () => {
    const res = await t.app.inject({ method: "GET", url: `/admin/users/${userId}/auth-providers`, headers: as() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ providers: ["emailpass"] });
    const unknown = await t.app.inject({
      method: "GET",
      url: "/admin/users/user_01M8XXXXXXXXXXXXXXXXXXXXXXXX/auth-providers",
      headers: as(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().type).toBe("not_found");
    const asCustomer = await t.app.inject({
      method: "GET",
      url: `/admin/users/${userId}/auth-providers`,
      headers: await t.customerHeaders("cus_1"),
    });
    expect(asCustomer.statusCode).toBe(403);
  });

  it("DELETE removes another admin and unlinks its identity; never the caller itself", async () => {
    const other = await createUserAccount(
      t.app.infra.engine,
      { email: "other@example.com", password: "pw-other" },
      { scryptLogN: 4 },
    );
    await t.app.modules.auth.linkActor(other.auth_identity_id, "customer", "cus_other");
    const self = await t.app.inject({ method: "DELETE", url: `/admin/users/${userId}`, headers: as() });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({ type: "not_allowed", message: "A user cannot delete itself" });
    expect(
      (
        await t.app.inject({
          method: "DELETE",
          url: `/admin/users/${other.user_id}`,
          headers: await t.customerHeaders("cus_1"),
        })
      ).statusCode,
    ).toBe(403);

    const res = await t.app.inject({ method: "DELETE", url: `/admin/users/${other.user_id}`, headers: as() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: other.user_id, object: "user", deleted: true });
    expect(
      (await t.app.inject({ method: "GET", url: `/admin/users/${other.user_id}`, headers: as() })).statusCode,
    ).toBe(404);
    const login = (actor: string) =>
      t.app.inject({
        method: "POST",
        url: `/auth/${actor}/emailpass`,
        payload: { email: "other@example.com", password: "pw-other" },
      });
    expect((await login("user")).statusCode).toBe(400);
    // The identity stays for the customer that shares it.
    expect((await login("customer")).statusCode).toBe(200);
    expect((await t.app.modules.auth.retrieve(other.auth_identity_id)).app_metadata).toEqual({
      customer_id: "cus_other",
    });

    const again = await t.app.inject({ method: "DELETE", url: `/admin/users/${other.user_id}`, headers: as() });
    expect(again.statusCode).toBe(404);
    expect(again.json().type).toBe("not_found");
    expect((await t.app.inject({ method: "GET", url: "/admin/users/me", headers: as() })).statusCode).toBe(200);
  });

  it("requires an admin: 401 without credentials, 403 for a customer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/users/me" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: "/admin/users", headers: await t.customerHeaders("cus_1") }))
        .statusCode,
    ).toBe(403);
  });
});
