import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { authOneTimeToken } from "@kasse/modules/auth/tables";
import { startTestSmtpServer, type ReceivedMail } from "@kasse/modules/notification/testing";
import { createTestApp, type TestApp } from "../../testing";

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const login = (actor: string, email: string, password: string) =>
  t.store.post(`/auth/${actor}/emailpass`, { email, password });

/** Waits for the mail to `to` (delivery happens after the 201). */
async function mailTo(to: string, after = 0): Promise<ReceivedMail> {
  for (let i = 0; i < 100; i++) {
    const found = smtp.mails.filter((m) => m.to.includes(to)).slice(after)[0];
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`no mail to ${to}`);
}
const tokenIn = (mail: ReceivedMail) => /Your reset token: ([A-Za-z0-9_-]+)/.exec(mail.raw)?.[1] ?? "";

async function requestReset(actor: string, body: Record<string, string>) {
  const res = await t.store.post(`/auth/${actor}/emailpass/reset-password`, body);
  expect(res.statusCode).toBe(201);
  expect(res.body).toBe("");
  return res;
}

describe("password reset", () => {
  it("sends a single-use token through SMTP; the update sets the password once; reuse is 401", async () => {
    expect(
      (await t.store.post("/store/customers", { email: "reset@example.com", password: "old-pass-1" })).statusCode,
    ).toBe(200);
    await requestReset("customer", { email: "Reset@Example.com" });
    const mail = await mailTo("reset@example.com");
    expect(mail.raw).toContain("Subject: Reset your password");
    const token = tokenIn(mail);
    expect(token.length).toBeGreaterThanOrEqual(40);

    // Stored hashed only, and admin views show the message with the token redacted.
    const stored = await t.database.db
      .select()
      .from(authOneTimeToken)
      .where(eq(authOneTimeToken.entity_id, "reset@example.com"));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored[0]!.expires_at.getTime() - stored[0]!.created_at.getTime()).toBeLessThanOrEqual(15 * 60_000 + 1000);
    const notifications = await t.app.inject({
      method: "GET",
      url: "/admin/notifications?to=reset@example.com",
      headers: await t.adminHeaders(),
    });
    expect(notifications.statusCode).toBe(200);
    expect(notifications.json()).toMatchObject({
      count: 1,
      notifications: [
        {
          to: "reset@example.com",
          channel: "email",
          template: "auth.password_reset",
          status: "success",
          attempts: 1,
          provider_id: "smtp",
          data: { token: "[redacted]" },
        },
      ],
    });
    expect(notifications.body).not.toContain(token);

    const wrongEmail = await t.store.post("/auth/customer/emailpass/update", {
      email: "other@example.com",
      token,
      password: "new-pass-1",
    });
    expect(wrongEmail.statusCode).toBe(401);
    const wrongActor = await t.store.post("/auth/user/emailpass/update", {
      email: "reset@example.com",
      token,
      password: "new-pass-1",
    });
    expect(wrongActor.statusCode).toBe(401);
    // A new password under 8 characters is refused and leaves the token usable.
    const short = await t.store.post("/auth/customer/emailpass/update", {
      email: "reset@example.com",
      token,
      password: "1234567",
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      type: "invalid_data",
      message: expect.stringMatching(/must NOT have fewer than 8 characters/),
    });

    const updated = await t.store.post("/auth/customer/emailpass/update", {
      email: "reset@example.com",
      token,
      password: "new-pass-1",
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ success: true });
    expect((await login("customer", "reset@example.com", "new-pass-1")).statusCode).toBe(200);
    expect((await login("customer", "reset@example.com", "old-pass-1")).statusCode).toBe(400);

    const reused = await t.store.post("/auth/customer/emailpass/update", {
      email: "reset@example.com",
      token,
      password: "evil-pass-1",
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().type).toBe("unauthorized");
    expect((await login("customer", "reset@example.com", "new-pass-1")).statusCode).toBe(200);
  });

  it("answers an unknown email exactly like a known one and sends nothing (no enumeration)", async () => {
    expect(
      (await t.store.post("/store/customers", { email: "known@example.com", password: "pw-123456" })).statusCode,
    ).toBe(200);
    const known = await t.store.post("/auth/customer/emailpass/reset-password", { email: "known@example.com" });
    const unknown = await t.store.post("/auth/customer/emailpass/reset-password", { email: "ghost@example.com" });
    expect([unknown.statusCode, unknown.body, unknown.headers["content-type"]]).toEqual([
      known.statusCode,
      known.body,
      known.headers["content-type"],
    ]);
    await mailTo("known@example.com");
    await t.app.inject({ method: "GET", url: "/health" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.mails.some((m) => m.to.includes("ghost@example.com"))).toBe(false);
    const rows = await t.database.db
      .select()
      .from(authOneTimeToken)
      .where(eq(authOneTimeToken.entity_id, "ghost@example.com"));
    expect(rows).toHaveLength(0);
  });

  it("an expired token is 401; a newer reset voids older links; garbage tokens and bad bodies are rejected", async () => {
    expect(
      (await t.store.post("/store/customers", { email: "expiry@example.com", password: "pw-123456" })).statusCode,
    ).toBe(200);
    await requestReset("customer", { email: "expiry@example.com" });
    const first = tokenIn(await mailTo("expiry@example.com"));
    await t.database.db
      .update(authOneTimeToken)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(authOneTimeToken.entity_id, "expiry@example.com"));
    const expired = await t.store.post("/auth/customer/emailpass/update", {
      email: "expiry@example.com",
      token: first,
      password: "new-pass-1",
    });
    expect(expired.statusCode).toBe(401);

    // Medusa's SDK form: `{identifier}`, and the token as a Bearer header.
    await requestReset("customer", { identifier: "expiry@example.com" });
    const second = tokenIn(await mailTo("expiry@example.com", 1));
    await requestReset("customer", { email: "expiry@example.com" });
    const third = tokenIn(await mailTo("expiry@example.com", 2));
    const viaHeader = await t.store.post(
      "/auth/customer/emailpass/update",
      { email: "expiry@example.com", password: "new-pass-3" },
      { authorization: `Bearer ${third}` },
    );
    expect(viaHeader.statusCode).toBe(200);
    // Using one link voided the other outstanding one.
    expect(
      (
        await t.store.post("/auth/customer/emailpass/update", {
          email: "expiry@example.com",
          token: second,
          password: "x-pass-1",
        })
      ).statusCode,
    ).toBe(401);
    expect((await login("customer", "expiry@example.com", "new-pass-3")).statusCode).toBe(200);

    expect(
      (
        await t.store.post("/auth/customer/emailpass/update", {
          email: "expiry@example.com",
          token: "forged-token",
          password: "x-pass-long",
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await t.store.post("/auth/customer/emailpass/update", { email: "expiry@example.com", password: "x-pass-long" }))
        .statusCode,
    ).toBe(401);
    for (const body of [
      {},
      { email: "expiry@example.com", token: "t" },
      { email: "bad", token: "t", password: "p" },
      { email: "expiry@example.com", token: "t", password: "p", x: 1 },
    ]) {
      expect((await t.store.post("/auth/customer/emailpass/update", body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{}, { email: "" }, { email: "a@b.co", identifier: "a@b.co" }, { mail: "a@b.co" }]) {
      expect(
        (await t.store.post("/auth/customer/emailpass/reset-password", body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await t.store.post("/auth/vendor/emailpass/reset-password", { email: "a@b.co" })).statusCode).toBe(400);
  });

  it("works the same for admin users", async () => {
    expect(
      (
        await t.store.post("/auth/user/emailpass/register", {
          email: "admin.reset@example.com",
          password: "admin-pass-1",
        })
      ).statusCode,
    ).toBe(200);
    await requestReset("user", { email: "admin.reset@example.com" });
    const token = tokenIn(await mailTo("admin.reset@example.com"));
    expect(
      (
        await t.store.post("/auth/customer/emailpass/update", {
          email: "admin.reset@example.com",
          token,
          password: "x-pass-1",
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await t.store.post("/auth/user/emailpass/update", {
          email: "admin.reset@example.com",
          token,
          password: "admin-pass-2",
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.store.post("/auth/user/emailpass/update", {
          email: "admin.reset@example.com",
          token,
          password: "admin-pass-3",
        })
      ).statusCode,
    ).toBe(401);
  });
});
