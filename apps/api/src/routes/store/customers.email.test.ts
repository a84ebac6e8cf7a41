import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { authOneTimeToken } from "@kasse/modules/auth/tables";
import { authenticatorCode } from "@kasse/modules/auth/testing";
import { startTestSmtpServer, waitForMail, type TestSmtpServer } from "@kasse/modules/notification/testing";
import { createTestApp, withFailure, type TestApp } from "../../testing";

// Who may hold an email (docs/security.md "Email ownership"): a customer account is registered only for its
// sign-in's own address, a change of address needs the token mailed to the new one, and an address
// nobody proved never keeps its owner out.

let t: TestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const address = { address_1: "1 Squat Lane", city: "Berlin", postal_code: "10115", country_code: "de" };

const login = (email: string, password: string) => t.store.post("/auth/customer/emailpass", { email, password });

async function signIn(email: string, password: string): Promise<Headers> {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(200);
  return bearer(res.json().token);
}

/** Registers in one call and signs in. */
async function signUp(email: string, password: string): Promise<{ id: string; headers: Headers }> {
  const res = await t.store.post("/store/customers", { email, password, first_name: "First" });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().customer.id, headers: await signIn(email, password) };
}

/** A mail's text with quoted-printable soft breaks joined. */
const textOf = (raw: string) => raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
const confirmationToken = (raw: string) => /Your confirmation token: ([A-Za-z0-9_-]+)/.exec(textOf(raw))?.[1] ?? "";
const resetToken = (raw: string) => /Your reset token: ([A-Za-z0-9_-]+)/.exec(textOf(raw))?.[1] ?? "";
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to)).length;

/** Asks for an email change and answers the token mailed to the new address. */
async function requestChange(headers: Headers, email: string): Promise<string> {
  const to = email.toLowerCase();
  const before = mailsTo(to);
  const res = await t.store.post("/store/customers/me/email", { email }, headers);
  expect(res.statusCode, res.body).toBe(200);
  return confirmationToken((await waitForMail(smtp, to, before)).raw);
}

const confirm = (headers: Headers, token: string) =>
  t.store.post("/store/customers/me/email/confirm", { token }, headers);

const me = async (headers: Headers) => (await t.store.get("/store/customers/me", headers)).json().customer;

async function adminCustomer(id: string) {
  return t.store.get(`/admin/customers/${id}`, await t.adminHeaders());
}

async function customersWithEmail(email: string) {
  const res = await t.store.get(`/admin/customers?email=${encodeURIComponent(email)}`, await t.adminHeaders());
  return res.json().customers as Array<{ id: string; has_account: boolean }>;
}

describe("registration is for the sign-in's own address", () => {
  it("a registration token creates a customer only for its own email, and only one; the address's owner registers after", async () => {
    const registered = await t.store.post("/auth/customer/emailpass/register", {
      email: "shopper@own.test",
      password: "shopper-pass-1",
    });
    const token = bearer(registered.json().token);
    const count = async () => (await t.store.get("/admin/customers?limit=0", await t.adminHeaders())).json().count;
    const before = await count();

    const squat = await t.store.post("/store/customers", { email: "victim@own.test", first_name: "Not" }, token);
    expect(squat.statusCode).toBe(403);
    expect(squat.json()).toEqual({
      type: "not_allowed",
      message: "A customer account can only be registered for the email of its sign-in: shopper@own.test",
    });
    expect(await count()).toBe(before);

    const own = await t.store.post("/store/customers", { email: "Shopper@Own.test", last_name: "Own" }, token);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().customer).toMatchObject({ email: "shopper@own.test", has_account: true });
    for (const email of ["shopper@own.test", "victim@own.test"]) {
      const second = await t.store.post("/store/customers", { email }, token);
      expect(second.statusCode, email).toBe(409);
      expect(second.json()).toEqual({ type: "conflict", message: "This sign-in already has a customer account" });
    }
    expect(await count()).toBe(before + 1);

    // The victim was never blocked: the address registers, the account works.
    const victim = await signUp("victim@own.test", "victim-pass-1");
    expect((await me(victim.headers)).email).toBe("victim@own.test");
  });

  it("a guest customer (no account) with the address blocks neither a registration nor a change to it", async () => {
    const guest = await t.store.post("/admin/customers", { email: "walkin@own.test" }, await t.adminHeaders());
    expect(guest.json().customer.has_account).toBe(false);
    const registered = await signUp("walkin@own.test", "walkin-pass-1");
    expect(await customersWithEmail("walkin@own.test")).toHaveLength(2);

    await t.store.post("/admin/customers", { email: "walkin2@own.test" }, await t.adminHeaders());
    const token = await requestChange(registered.headers, "walkin2@own.test");
    expect((await confirm(registered.headers, token)).statusCode).toBe(200);
    expect((await customersWithEmail("walkin2@own.test")).map((c) => c.has_account).sort()).toEqual([false, true]);
  });
});

describe("changing a customer's email needs the token mailed to the new address", () => {
  it("POST /store/customers/me refuses a changed email (nothing is written) and says how to change it", async () => {
    const ana = await signUp("ana@change.test", "ana-pass-1");
    const res = await t.store.post(
      "/store/customers/me",
      { email: "elsewhere@change.test", last_name: "X" },
      ana.headers,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "A registered customer's email changes only once the new address is proven: POST /store/customers/me/email {email} mails it a token, then POST /store/customers/me/email/confirm {token} with the customer's token changes it",
    );
    expect(await me(ana.headers)).toMatchObject({ email: "ana@change.test", last_name: null });
    expect(mailsTo("elsewhere@change.test")).toBe(0);
    // An admin cannot move a registered customer's address either (a guest's, yes: admin customers tests).
    const byAdmin = await t.store.post(
      `/admin/customers/${ana.id}`,
      { email: "elsewhere@change.test" },
      await t.adminHeaders(),
    );
    expect(byAdmin.statusCode).toBe(400);
    expect((await adminCustomer(ana.id)).json().customer.email).toBe("ana@change.test");
  });

  it("the token changes the customer and the login atomically; the old address is told; a used token is refused", async () => {
    const ben = await signUp("ben@change.test", "ben-pass-1");
    const asked = await t.store.post("/store/customers/me/email", { email: "Ben.New@change.test" }, ben.headers);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().email_change.email).toBe("ben.new@change.test");
    const expiresIn = Date.parse(asked.json().email_change.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60_000);
    const mail = await waitForMail(smtp, "ben.new@change.test");
    expect(mail.raw).toContain("Subject: Confirm your new email address");
    const token = confirmationToken(mail.raw);
    expect(token.length).toBeGreaterThanOrEqual(40);
    // Until it is confirmed nothing changed; the token is stored only as a hash.
    expect((await me(ben.headers)).email).toBe("ben@change.test");
    const [row] = await t.database.db
      .select()
      .from(authOneTimeToken)
      .where(and(eq(authOneTimeToken.kind, "email_change"), eq(authOneTimeToken.entity_id, "ben.new@change.test")));
    expect(JSON.stringify(row)).not.toContain(token);

    const confirmed = await confirm(ben.headers, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().customer).toMatchObject({ id: ben.id, email: "ben.new@change.test" });
    // The login moved with it: the new address signs in to the same customer, the old one no longer does.
    expect((await me(await signIn("ben.new@change.test", "ben-pass-1"))).id).toBe(ben.id);
    expect((await login("ben@change.test", "ben-pass-1")).statusCode).toBe(400);
    // The session that made the change goes on working.
    expect((await me(ben.headers)).email).toBe("ben.new@change.test");
    const told = textOf((await waitForMail(smtp, "ben@change.test")).raw);
    expect(told).toContain("changed from ben@change.test to ben.new@change.test");

    const reused = await confirm(ben.headers, token);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({
      type: "invalid_data",
      message: "The email change token is invalid, used or expired: ask for a new one",
    });
    // The old address is free: someone else may register it now.
    await signUp("ben@change.test", "other-pass-1");
  });

  it("someone else's token, an expired token and a replaced token change nothing", async () => {
    const cora = await signUp("cora@change.test", "cora-pass-1");
    const dan = await signUp("dan@change.test", "dan-pass-1");
    const coras = await requestChange(cora.headers, "cora.new@change.test");

    // Dan holds Cora's token (he read her mail): it is not his to use, and stays hers.
    const stolen = await confirm(dan.headers, coras);
    expect(stolen.statusCode).toBe(400);
    expect((await me(dan.headers)).email).toBe("dan@change.test");

    // Expired.
    await t.database.db
      .update(authOneTimeToken)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(authOneTimeToken.entity_id, "cora.new@change.test"));
    expect((await confirm(cora.headers, coras)).statusCode).toBe(400);

    // A newer request replaces the older token.
    const first = await requestChange(cora.headers, "cora.a@change.test");
    const second = await requestChange(cora.headers, "cora.b@change.test");
    expect((await confirm(cora.headers, first)).statusCode).toBe(400);
    expect((await me(cora.headers)).email).toBe("cora@change.test");
    expect((await confirm(cora.headers, second)).statusCode).toBe(200);
    expect((await me(cora.headers)).email).toBe("cora.b@change.test");
  });

  it("bad requests are 4xx and send nothing", async () => {
    const eve = await signUp("eve@change.test", "eve-pass-1");
    const admin = await t.adminHeaders();
    for (const body of [{}, { email: "nope" }, { email: "x@change.test", extra: 1 }, { email: 5 }]) {
      const res = await t.store.post("/store/customers/me/email", body, eve.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{}, { token: "" }, { token: 1 }, { token: "x", email: "a@b.co" }]) {
      const res = await t.store.post("/store/customers/me/email/confirm", body, eve.headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const url of ["/store/customers/me/email", "/store/customers/me/email/confirm"]) {
      const payload = url.endsWith("confirm") ? { token: "x" } : { email: "x@change.test" };
      expect((await t.app.inject({ method: "POST", url, payload })).statusCode).toBe(401);
      expect((await t.store.post(url, payload, admin)).statusCode).toBe(403);
    }
    expect(mailsTo("eve@change.test") + mailsTo("x@change.test")).toBe(0);
  });

  it("confirming the account's own address proves it: no other account can then take it", async () => {
    const hal = await signUp("hal@change.test", "hal-pass-1");
    const ivy = await signUp("ivy@change.test", "ivy-pass-1");
    const proof = await requestChange(hal.headers, "HAL@change.test");
    const proven = await confirm(hal.headers, proof);
    expect(proven.statusCode).toBe(200);
    expect(proven.json().customer).toMatchObject({ id: hal.id, email: "hal@change.test" });
    // Nothing moved, so nobody is told of a change.
    expect(mailsTo("hal@change.test")).toBe(1);
    const taken = await confirm(ivy.headers, await requestChange(ivy.headers, "hal@change.test"));
    expect(taken.statusCode).toBe(409);
    expect((await me(hal.headers)).email).toBe("hal@change.test");
    expect((await login("hal@change.test", "hal-pass-1")).statusCode).toBe(200);
  });

  it("an address an account proved cannot be taken: the confirmation is 409 and changes nothing", async () => {
    const fay = await signUp("fay@change.test", "fay-pass-1");
    const gus = await signUp("gus@change.test", "gus-pass-1");
    // Fay proves her address by moving her account to it.
    expect((await confirm(fay.headers, await requestChange(fay.headers, "fay@proven.test"))).statusCode).toBe(200);
    // Asking reveals nothing (the mail goes to Fay); even with her token, Gus cannot take it.
    const token = await requestChange(gus.headers, "fay@proven.test");
    const taken = await confirm(gus.headers, token);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ type: "conflict", message: "An account with email fay@proven.test already exists" });
    expect((await me(gus.headers)).email).toBe("gus@change.test");
    expect((await me(fay.headers)).email).toBe("fay@proven.test");
    expect((await login("fay@proven.test", "fay-pass-1")).statusCode).toBe(200);
    expect((await login("gus@change.test", "gus-pass-1")).statusCode).toBe(200);
    // Registering the address is refused as in Medusa.
    const again = await t.store.post("/auth/customer/emailpass/register", {
      email: "fay@proven.test",
      password: "x-pass-12",
    });
    expect(again.statusCode).toBe(401);
  });
});

describe("an address nobody proved never keeps its owner out", () => {
  /** A squatter registers the victim's address, with a customer, a saved address and an authenticator app. */
  async function squat(email: string) {
    const squatter = await signUp(email, "squatter-pass-1");
    await t.store.post("/store/customers/me/addresses", { ...address, is_default_shipping: true }, squatter.headers);
    const setup = (await t.store.post("/auth/mfa/factors", { provider: "totp" }, squatter.headers)).json();
    const enabled = await t.store.post(
      `/auth/mfa/factors/${setup.mfa_factor.id}/verify`,
      { code: authenticatorCode(setup.secret, -1) },
      squatter.headers,
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect((await login(email, "squatter-pass-1")).json().mfa_required).toBe(true);
    return squatter;
  }

  it("the owner's password reset takes the account over: the squatter's password, sessions and second factor end", async () => {
    const squatter = await squat("owner1@squat.test");
    const signUpAgain = await t.store.post("/auth/customer/emailpass/register", {
      email: "owner1@squat.test",
      password: "owner-pass-1",
    });
    expect(signUpAgain.json()).toEqual({ type: "unauthorized", message: "Identity with email already exists" });

    expect(
      (await t.store.post("/auth/customer/emailpass/reset-password", { email: "owner1@squat.test" })).statusCode,
    ).toBe(201);
    const mail = textOf((await waitForMail(smtp, "owner1@squat.test")).raw);
    expect(mail).toContain("This address was never confirmed for the account registered with it");
    const reset = await t.store.post("/auth/customer/emailpass/update", {
      email: "owner1@squat.test",
      token: resetToken(mail),
      password: "owner-pass-1",
    });
    expect(reset.statusCode).toBe(200);

    expect((await t.store.get("/store/customers/me", squatter.headers)).statusCode).toBe(401);
    expect((await login("owner1@squat.test", "squatter-pass-1")).statusCode).toBe(400);
    // No second factor left to lock the owner out: the password alone signs in.
    const owner = await login("owner1@squat.test", "owner-pass-1");
    expect(owner.json().mfa_required).toBeUndefined();
    // What the account held stays with it (the reset mail said so): docs/security.md "Email ownership".
    expect((await me(bearer(owner.json().token))).id).toBe(squatter.id);

    // A second reset of the now proven address is an ordinary one: no warning.
    await t.store.post("/auth/customer/emailpass/reset-password", { email: "owner1@squat.test" });
    expect(textOf((await waitForMail(smtp, "owner1@squat.test", 1)).raw)).not.toContain("never confirmed");
  });

  it("the owner moving an account to the address closes the squat: its customer, login and sessions end; none of its data comes along", async () => {
    const squatter = await squat("owner2@squat.test");
    const owner = await signUp("owner2.old@squat.test", "owner-pass-2");
    const token = await requestChange(owner.headers, "owner2@squat.test");
    const moved = await confirm(owner.headers, token);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().customer).toMatchObject({ id: owner.id, email: "owner2@squat.test", addresses: [] });

    expect((await adminCustomer(squatter.id)).statusCode).toBe(404);
    expect((await customersWithEmail("owner2@squat.test")).map((c) => c.id)).toEqual([owner.id]);
    expect((await t.store.get("/store/customers/me", squatter.headers)).statusCode).toBe(401);
    expect((await login("owner2@squat.test", "squatter-pass-1")).statusCode).toBe(400);
    const signedIn = await login("owner2@squat.test", "owner-pass-2");
    expect(signedIn.json().mfa_required).toBeUndefined();
    expect((await me(bearer(signedIn.json().token))).id).toBe(owner.id);
  });

  it("a failure in the change's last step undoes all of it: the squat is back, the email unchanged, the token usable", async () => {
    const squatter = await signUp("owner4@squat.test", "squatter-pass-4");
    const owner = await signUp("owner4.old@squat.test", "owner-pass-4");
    const token = await requestChange(owner.headers, "owner4@squat.test");
    const failed = await withFailure(
      t.database.db,
      "provider_identity",
      "UPDATE",
      "NEW.entity_id = 'owner4@squat.test'",
      () => confirm(owner.headers, token),
    );
    expect(failed.statusCode).toBe(500);
    expect((await me(owner.headers)).email).toBe("owner4.old@squat.test");
    expect((await login("owner4.old@squat.test", "owner-pass-4")).statusCode).toBe(200);
    expect((await me(squatter.headers)).id).toBe(squatter.id);
    expect((await login("owner4@squat.test", "squatter-pass-4")).statusCode).toBe(200);
    // Nothing was lost on the way: the same token finishes the change.
    expect((await confirm(owner.headers, token)).statusCode).toBe(200);
    expect((await t.store.get("/store/customers/me", squatter.headers)).statusCode).toBe(401);
  });

  it("a squat identity without a customer is ended too, and the owner's registration token then works", async () => {
    const registered = await t.store.post("/auth/customer/emailpass/register", {
      email: "owner3@squat.test",
      password: "squatter-pass-3",
    });
    const squatToken = bearer(registered.json().token);
    const owner = await signUp("owner3.old@squat.test", "owner-pass-3");
    expect((await confirm(owner.headers, await requestChange(owner.headers, "owner3@squat.test"))).statusCode).toBe(
      200,
    );
    // The squatter's registration token died with its identity.
    const late = await t.store.post("/store/customers", { email: "owner3@squat.test" }, squatToken);
    expect(late.statusCode).toBe(401);
    expect((await login("owner3@squat.test", "owner-pass-3")).statusCode).toBe(200);
  });
});
