import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, SignJWT } from "jose";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { invite as inviteTable } from "@kasse/modules/user/tables";
import { startTestSmtpServer } from "@kasse/modules/notification/testing";
import { createTestApp, type TestApp } from "../../testing";

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url }, { adminId: "user_inviter" });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const accept = (token: string, body: unknown, registration: string) =>
  t.store.post(`/admin/invites/accept?token=${encodeURIComponent(token)}`, body, bearer(registration));
const register = async (email: string, password = "pw-invited-1") => {
  const res = await t.store.post("/auth/user/emailpass/register", { email, password }, {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
};
const invite = async (email: string, extra: Record<string, unknown> = {}) => {
  const res = await t.admin.post("/admin/invites", { email, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invite as {
    id: string;
    email: string;
    token: string;
    accepted: boolean;
    expires_at: string;
    metadata: unknown;
  };
};
const expect401 = (res: { statusCode: number; json(): { type: string } }) => {
  expect(res.statusCode).toBe(401);
  expect(res.json().type).toBe("unauthorized");
};
const inviteCount = async () =>
  (
    await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from invite where deleted_at is null`)
  )[0]!.n;
const userCount = async () =>
  (
    await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from "user" where deleted_at is null`)
  )[0]!.n;

/** The mail sent to `to` (the n-th one), its quoted-printable soft breaks joined. */
async function mailTo(to: string, nth = 0): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const found = smtp.mails.filter((m) => m.to.includes(to))[nth];
    if (found) return found.raw.replace(/=\r?\n/g, "");
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`no mail to ${to}`);
}
const tokenIn = (raw: string) => /Your invite token: ([\w.-]+)/.exec(raw)?.[1] ?? "";

describe("admin invites: the whole cycle", () => {
  it("create (token shown once, mailed, stored hashed) → register → accept → the new admin signs in; the token works once", async () => {
    const before = Date.now();
    const created = await invite("New.Admin@Example.com", { metadata: { team: "ops" } });
    expect(created).toMatchObject({ email: "new.admin@example.com", accepted: false, metadata: { team: "ops" } });
    expect(created.id).toMatch(/^invite_/);
    // Valid for 7 days.
    const ttl = new Date(created.expires_at).getTime() - before;
    expect(ttl).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600_000 + 60_000);
    // Medusa's dashboard reads the invite from the token: a JWT with the invite's id, email and expiry.
    expect(decodeJwt(created.token)).toMatchObject({
      id: created.id,
      email: "new.admin@example.com",
      exp: Math.floor(new Date(created.expires_at).getTime() / 1000),
    });

    const mail = await mailTo("new.admin@example.com");
    expect(mail).toContain("Subject: You are invited to administer the store");
    expect(tokenIn(mail)).toBe(created.token);

    // Never shown again, never stored: only a hash of its secret.
    const listed = await t.admin.get("/admin/invites?q=new.admin");
    expect(listed.json()).toMatchObject({
      count: 1,
      offset: 0,
      limit: 15,
      invites: [{ id: created.id, email: "new.admin@example.com", accepted: false }],
    });
    const retrieved = await t.admin.get(`/admin/invites/${created.id}`);
    const secret = decodeJwt(created.token).jti!;
    for (const res of [listed, retrieved]) {
      expect(res.body).not.toContain(created.token);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain("token");
    }
    const [row] = await t.database.db.select().from(inviteTable).where(eq(inviteTable.id, created.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const notifications = await t.admin.get("/admin/notifications?to=new.admin@example.com");
    expect(notifications.json().notifications[0]).toMatchObject({ template: "user.invite", status: "success" });
    expect(notifications.body).not.toContain(secret);

    const registration = await register("new.admin@example.com");
    const accepted = await accept(
      tokenIn(mail),
      { email: "New.Admin@example.com", first_name: "Nia", last_name: "Admin" },
      registration,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const user = accepted.json().user;
    expect(user).toMatchObject({ email: "new.admin@example.com", first_name: "Nia", last_name: "Admin" });
    expect(Object.keys(user)).not.toContain("token");

    const login = await t.store.post(
      "/auth/user/emailpass",
      { email: "new.admin@example.com", password: "pw-invited-1" },
      {},
    );
    expect(login.statusCode).toBe(200);
    expect((await t.store.get("/admin/users/me", bearer(login.json().token))).json().user.id).toBe(user.id);
    // The registration token becomes the new admin's through a refresh, as Medusa's dashboard does.
    const refreshed = await t.store.get("/auth/token/refresh", bearer(registration));
    expect(decodeJwt(refreshed.json().token)).toMatchObject({ actor_type: "user", actor_id: user.id });

    // Used up: gone from the list, and a second accept is 401.
    expect((await t.admin.get("/admin/invites?q=new.admin")).json().count).toBe(0);
    expect((await t.admin.get(`/admin/invites/${created.id}`)).statusCode).toBe(404);
    const other = await register("someone-else@example.com");
    expect401(await accept(created.token, {}, other));
    expect401(await accept(created.token, {}, registration));
  });

  it("accepting needs no body (Medusa's SDK may send none) and answers the fields asked for", async () => {
    const created = await invite("bare@example.com");
    const registration = await register("bare@example.com");
    const res = await t.app.inject({
      method: "POST",
      url: `/admin/invites/accept?token=${created.token}&fields=id,email`,
      headers: bearer(registration),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toEqual({ id: expect.stringMatching(/^user_/), email: "bare@example.com" });
  });

  it("resend gives a new token and a new expiry and mails it; the old token stops working; delete voids it", async () => {
    const first = await invite("resend@example.com");
    await t.database.db
      .update(inviteTable)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(inviteTable.id, first.id));
    const resent = await t.admin.post(`/admin/invites/${first.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const second = resent.json().invite;
    expect(second.id).toBe(first.id);
    expect(second.token).not.toBe(first.token);
    expect(new Date(second.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    expect(tokenIn(await mailTo("resend@example.com", 1))).toBe(second.token);

    const registration = await register("resend@example.com");
    expect401(await accept(first.token, {}, registration));
    expect((await accept(second.token, {}, registration)).statusCode).toBe(200);
    // An accepted invite cannot be resent (it is gone).
    expect((await t.admin.post(`/admin/invites/${first.id}/resend`)).statusCode).toBe(404);

    const doomed = await invite("doomed@example.com");
    expect((await t.admin.delete(`/admin/invites/${doomed.id}`)).json()).toEqual({
      id: doomed.id,
      object: "invite",
      deleted: true,
    });
    expect401(await accept(doomed.token, {}, await register("doomed@example.com")));
    expect((await t.admin.delete(`/admin/invites/${doomed.id}`)).statusCode).toBe(404);
    // Its email may be invited again.
    expect((await t.admin.post("/admin/invites", { email: "doomed@example.com" })).statusCode).toBe(200);
  });
});

describe("admin invites: refusals", () => {
  it("an expired, forged, foreign or garbled token is 401 and creates nothing", async () => {
    const created = await invite("expired@example.com");
    const registration = await register("expired@example.com");
    await t.database.db
      .update(inviteTable)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(inviteTable.id, created.id));
    const users = await userCount();
    expect401(await accept(created.token, {}, registration));

    const live = await invite("forged@example.com");
    const claims = decodeJwt(live.token);
    const foreignKey = new TextEncoder().encode("another-deployment-secret-0123456789");
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "kasse-invite+jwt" })
      .sign(foreignKey);
    // A session token signed with the right key is not an invite token.
    const session = (
      await t.store.post("/auth/user/emailpass/register", { email: "session@example.com", password: "pw-x-1-long" }, {})
    ).json().token;
    const [header, payload, signature] = live.token.split(".");
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, email: "evil@example.com" })).toString("base64url")}.${signature}`;
    const forgedRegistration = await register("forged@example.com");
    for (const token of [foreign, session, tampered, "garbage", `${header}.${payload}.`])
      expect401(await accept(token, {}, forgedRegistration));
    expect((await t.store.post("/admin/invites/accept", {}, bearer(forgedRegistration))).statusCode).toBe(400);
    expect(await userCount()).toBe(users);
    // The genuine token still works afterwards.
    expect((await accept(live.token, {}, forgedRegistration)).statusCode).toBe(200);
  });

  it("the caller must hold a user registration token for the invite's email", async () => {
    const created = await invite("exact@example.com");
    const users = await userCount();
    // No token, a bad one, a customer's registration token, an API key.
    expect401(await t.store.post(`/admin/invites/accept?token=${created.token}`, {}, {}));
    expect401(await accept(created.token, {}, "garbage"));
    const customerRegistration = (
      await t.store.post(
        "/auth/customer/emailpass/register",
        { email: "exact-customer@example.com", password: "pw-c-1-long" },
        {},
      )
    ).json().token;
    expect401(await accept(created.token, {}, customerRegistration));
    const key = (await t.admin.post("/admin/api-keys", { title: "k", type: "secret" })).json().api_key.token;
    expect401(
      await t.store.post(`/admin/invites/accept?token=${created.token}`, {}, { "x-service-access-token": key }),
    );
    // A signed-in admin is already a user.
    const signedIn = await accept(created.token, {}, (await t.adminHeaders("user_inviter")).authorization!.slice(7));
    expect(signedIn.statusCode).toBe(400);
    expect(signedIn.json().type).toBe("invalid_data");
    // Another email in the body, or a registration under another email.
    const registration = await register("exact@example.com");
    const otherEmail = await accept(created.token, { email: "someone@example.com" }, registration);
    expect(otherEmail.statusCode).toBe(400);
    expect(otherEmail.json()).toEqual({ type: "invalid_data", message: "The invite was sent to another email" });
    const wrongIdentity = await accept(created.token, {}, await register("not-exact@example.com"));
    expect(wrongIdentity.statusCode).toBe(400);
    expect(wrongIdentity.json().type).toBe("invalid_data");
    // Bad bodies and queries.
    for (const body of [{ first_name: 5 }, { unknown: true }, { email: 7 }])
      expect((await accept(created.token, body, registration)).statusCode).toBe(400);
    expect(
      (await t.store.post(`/admin/invites/accept?token=${created.token}&extra=1`, {}, bearer(registration))).statusCode,
    ).toBe(400);
    expect(await userCount()).toBe(users);
    // Nothing was used up.
    expect((await accept(created.token, { first_name: "Exact" }, registration)).statusCode).toBe(200);
  });

  it("an invite whose user cannot be created (email taken meanwhile) is left open: the saga undoes the claim", async () => {
    const created = await invite("late@example.com");
    await t.app.modules.user.create({ email: "late@example.com" });
    const registration = await register("late@example.com");
    const res = await accept(created.token, {}, registration);
    expect(res.statusCode).toBe(409);
    expect(res.json().type).toBe("conflict");
    expect((await t.admin.get(`/admin/invites/${created.id}`)).json().invite).toMatchObject({
      id: created.id,
      accepted: false,
    });
    expect(await t.app.modules.invite.findOpen(decodeJwt(created.token).jti!)).toMatchObject({ id: created.id });
  });

  it("two accepts of one invite at once: exactly one user", async () => {
    const created = await invite("race@example.com");
    const registration = await register("race@example.com");
    const answers = await Promise.all([
      accept(created.token, {}, registration),
      accept(created.token, {}, registration),
      accept(created.token, {}, registration),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect([401, 409]).toContain(a.statusCode);
    const rows = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from "user" where email = 'race@example.com'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("bad create input, a duplicate invite and an existing user's email are refused and write nothing", async () => {
    const before = await inviteCount();
    for (const body of [
      {},
      { email: "not-an-email" },
      { email: 5 },
      { email: "ok@example.com", extra: 1 },
      { email: "ok@example.com", metadata: "x" },
      { email: "ok@example.com", token: "mine" },
    ]) {
      const res = await t.admin.post("/admin/invites", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await invite("twice@example.com");
    const twice = await t.admin.post("/admin/invites", { email: "TWICE@example.com" });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().type).toBe("conflict");
    const existing = await t.admin.post("/admin/invites", { email: "user_inviter@kasse.test" });
    expect(existing.statusCode).toBe(409);
    expect(await inviteCount()).toBe(before + 1);

    expect((await t.admin.get("/admin/invites/invite_missing")).statusCode).toBe(404);
    expect((await t.admin.post("/admin/invites/invite_missing/resend")).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/invites/invite_missing")).statusCode).toBe(404);
    const created = await invite("resend-body@example.com");
    expect((await t.admin.post(`/admin/invites/${created.id}/resend`, { email: "x@example.com" })).statusCode).toBe(
      400,
    );
    for (const query of ["limit=-1", "order=token_hash", "unknown=1", "offset=x"])
      expect((await t.admin.get(`/admin/invites?${query}`)).statusCode, query).toBe(400);
  });

  it("lists with paging, filters and order; every route but accept needs an admin", async () => {
    const listed = await t.admin.get("/admin/invites?limit=2&offset=0&order=email");
    expect(listed.statusCode).toBe(200);
    const body = listed.json();
    expect(body.invites).toHaveLength(2);
    expect(body.count).toBeGreaterThan(2);
    expect(body.invites.map((i: { email: string }) => i.email)).toEqual(
      [...body.invites.map((i: { email: string }) => i.email)].sort(),
    );
    const byEmail = await t.admin.get("/admin/invites?email=twice@example.com");
    expect(byEmail.json()).toMatchObject({ count: 1, invites: [{ email: "twice@example.com" }] });
    expect(
      (await t.admin.get(`/admin/invites?id[]=${byEmail.json().invites[0].id}&fields=email`)).json().invites,
    ).toEqual([{ id: byEmail.json().invites[0].id, email: "twice@example.com" }]);

    const customer = await t.customerHeaders("cus_invites");
    for (const [method, url] of [
      ["GET", "/admin/invites"],
      ["POST", "/admin/invites"],
      ["GET", "/admin/invites/invite_x"],
      ["POST", "/admin/invites/invite_x/resend"],
      ["DELETE", "/admin/invites/invite_x"],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.app.inject({ method, url, headers: customer })).statusCode, `${method} ${url}`).toBe(403);
    }
  });
});
