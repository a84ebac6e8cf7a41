import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { MFA_CHALLENGE, MFA_CODE_REQUIRED } from "@kasse/modules/auth";
import { authMfaChallenge } from "@kasse/modules/auth/tables";
import { authenticatorCode } from "@kasse/modules/auth/testing";
import { useTestApp } from "../../testing";

/**
 * TOTP multi-factor authentication (Medusa 2.21's `/auth/mfa/*`): an identity enrols an
 * authenticator app, and from then on its password alone yields no session, only a challenge
 * that a code (or a recovery code, once) turns into the token.
 */
const t = useTestApp();

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const INVALID_CODE = { type: "invalid_data", message: "Invalid MFA code" };

async function signIn(email: string, password: string) {
  const res = await t.store.post("/auth/user/emailpass", { email, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A new admin user signed in (no MFA yet): its email and session headers. */
async function newAdmin(email: string): Promise<{ email: string; headers: Headers }> {
  await createUserAccount(t.app.infra.engine, { email, password: "pw-mfa-1" }, { scryptLogN: t.config.scryptLogN });
  return { email, headers: bearer((await signIn(email, "pw-mfa-1")).token) };
}

/** A new admin with an enabled authenticator app (its first code was `now - 1`): the setup's secret and factor id. */
async function enrolledAdmin(email: string) {
  const admin = await newAdmin(email);
  const setup = (await t.store.post("/auth/mfa/factors", { provider: "totp" }, admin.headers)).json();
  const verified = await t.store.post(
    `/auth/mfa/factors/${setup.mfa_factor.id}/verify`,
    { code: authenticatorCode(setup.secret, -1) },
    admin.headers,
  );
  expect(verified.statusCode, verified.body).toBe(200);
  return { ...admin, secret: setup.secret as string, factorId: setup.mfa_factor.id as string };
}

const challenge = (id: string, body: unknown, headers?: Headers) =>
  t.store.post(`/auth/mfa/challenges/${id}/verify`, body, headers);

describe("enrolling an authenticator app", () => {
  it("starts a pending factor with its secret answered once, verifies it with a code, then issues recovery codes", async () => {
    const admin = await newAdmin("enrol@kasse.test");
    expect((await t.store.get("/auth/mfa/factors", admin.headers)).json()).toEqual({ mfa_factors: [] });

    const res = await t.store.post(
      "/auth/mfa/factors",
      { provider: "totp", label: "Authenticator app", issuer: "Kasse Shop" },
      admin.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const setup = res.json();
    expect(setup.mfa_factor).toMatchObject({ provider: "totp", status: "pending", label: "Authenticator app" });
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toBe(
      `otpauth://totp/Kasse%20Shop:enrol%40kasse.test?secret=${setup.secret}&issuer=Kasse+Shop&algorithm=SHA1&digits=6&period=30`,
    );
    // At rest the secret is sealed (AES-256-GCM), never the base32 the app was given.
    const [stored] = await queryRows<{ secret: string }>(
      t.database.db,
      sql`select secret from auth_mfa_factor where id = ${setup.mfa_factor.id}`,
    );
    expect(stored!.secret).not.toContain(setup.secret);
    expect(stored!.secret.split(".")).toHaveLength(3);

    const listed = (await t.store.get("/auth/mfa/factors", admin.headers)).json().mfa_factors;
    expect(listed).toEqual([setup.mfa_factor]);
    expect(JSON.stringify(listed)).not.toContain(setup.secret);

    // Recovery codes need an enabled factor.
    expect((await t.store.post("/auth/mfa/recovery-codes", {}, admin.headers)).json()).toEqual({
      type: "invalid_data",
      message: "Enable MFA before generating recovery codes",
    });
    const wrong = await t.store.post(
      `/auth/mfa/factors/${setup.mfa_factor.id}/verify`,
      { code: authenticatorCode(setup.secret, 5) },
      admin.headers,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([400, INVALID_CODE]);
    const verified = await t.store.post(
      `/auth/mfa/factors/${setup.mfa_factor.id}/verify`,
      { code: authenticatorCode(setup.secret) },
      admin.headers,
    );
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().mfa_factor).toMatchObject({ id: setup.mfa_factor.id, status: "enabled" });

    // Setting up again while enabled is refused; the enabled factor stays.
    const again = await t.store.post("/auth/mfa/factors", { provider: "totp" }, admin.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().type).toBe("conflict");

    const codes = await t.store.post("/auth/mfa/recovery-codes", { count: 4 }, admin.headers);
    expect(codes.statusCode, codes.body).toBe(200);
    const recovery: string[] = codes.json().recovery_codes;
    expect(recovery).toHaveLength(4);
    for (const code of recovery) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const hashes = await queryRows<{ code_hash: string }>(
      t.database.db,
      sql`select code_hash from auth_mfa_recovery_code r join auth_mfa_factor f using (auth_identity_id) where f.id = ${setup.mfa_factor.id}`,
    );
    expect(hashes).toHaveLength(4);
    for (const { code_hash } of hashes) expect(recovery.join()).not.toContain(code_hash);
    expect(recovery.some((code) => hashes.some((h) => h.code_hash.includes(code.replace("-", ""))))).toBe(false);
  });

  it("refuses unknown fields, other providers and a missing session; a pending setup is replaced and cancelled without a code", async () => {
    const admin = await newAdmin("strict@kasse.test");
    for (const body of [{ provider: "sms" }, { provider: "totp", secret: "AAAA" }, {}]) {
      const res = await t.store.post("/auth/mfa/factors", body, admin.headers);
      expect([res.statusCode, res.json().type]).toEqual([400, "invalid_data"]);
    }
    const anonymous = await t.store.get("/auth/mfa/factors");
    expect([anonymous.statusCode, anonymous.json().type]).toEqual([401, "unauthorized"]);
    // An admin's API key is no identity's session.
    const key = (await t.admin.post("/admin/api-keys", { title: "CI", type: "secret" })).json().api_key.token;
    const withKey = await t.store.get("/auth/mfa/factors", { "x-service-access-token": key });
    expect(withKey.statusCode).toBe(401);

    const first = (await t.store.post("/auth/mfa/factors", { provider: "totp" }, admin.headers)).json();
    const second = (await t.store.post("/auth/mfa/factors", { provider: "totp" }, admin.headers)).json();
    expect(second.secret).not.toBe(first.secret);
    const listed = (await t.store.get("/auth/mfa/factors", admin.headers)).json().mfa_factors;
    expect(listed.map((f: { id: string }) => f.id)).toEqual([second.mfa_factor.id]);
    expect(
      (await t.store.post(`/auth/mfa/factors/${first.mfa_factor.id}/verify`, { code: "123456" }, admin.headers))
        .statusCode,
    ).toBe(404);

    const cancelled = await t.store.delete(`/auth/mfa/factors/${second.mfa_factor.id}`, undefined, admin.headers);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().mfa_factor).toMatchObject({ id: second.mfa_factor.id, status: "disabled" });
    expect((await t.store.get("/auth/mfa/factors", admin.headers)).json()).toEqual({ mfa_factors: [] });
    // Still no MFA: the password signs in as before.
    expect((await signIn("strict@kasse.test", "pw-mfa-1")).mfa_challenge).toBeUndefined();
  });
});

describe("signing in with MFA enabled", () => {
  let admin: Awaited<ReturnType<typeof enrolledAdmin>>;
  beforeAll(async () => {
    admin = await enrolledAdmin("challenged@kasse.test");
  });

  it("answers a challenge and a token no route honours; the right code answers the session token, once", async () => {
    const login = await signIn(admin.email, "pw-mfa-1");
    expect(login).toMatchObject({
      mfa_required: true,
      mfa_challenge: {
        actor_type: "user",
        auth_provider: "emailpass",
        methods: ["totp"],
        attempts: 0,
        max_attempts: 5,
      },
    });
    const expiresIn = Date.parse(login.mfa_challenge.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);

    // The password alone gets nowhere: not the admin API, not a refresh, not the factors.
    const pending = bearer(login.token);
    for (const res of [
      await t.store.get("/admin/users/me", pending),
      await t.store.get("/auth/token/refresh", pending),
      await t.store.post("/auth/mfa/recovery-codes", {}, pending),
      await t.store.delete(`/auth/mfa/factors/${admin.factorId}`, {}, pending),
    ])
      expect([res.statusCode, res.json().type]).toEqual([401, "unauthorized"]);

    const wrong = await challenge(
      login.mfa_challenge.id,
      { method: "totp", code: authenticatorCode(admin.secret, 3) },
      pending,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([400, INVALID_CODE]);
    const code = authenticatorCode(admin.secret);
    const passed = await challenge(login.mfa_challenge.id, { method: "totp", code }, pending);
    expect(passed.statusCode, passed.body).toBe(200);
    const me = await t.store.get("/admin/users/me", bearer(passed.json().token));
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user.email).toBe(admin.email);

    // A completed challenge is spent, and the code just used is not accepted again in its window.
    const spent = await challenge(login.mfa_challenge.id, { method: "totp", code: authenticatorCode(admin.secret, 1) });
    expect([spent.statusCode, spent.json().type]).toEqual([401, "unauthorized"]);
    const replay = await challenge((await signIn(admin.email, "pw-mfa-1")).mfa_challenge.id, { method: "totp", code });
    expect([replay.statusCode, replay.json()]).toEqual([400, INVALID_CODE]);
  });

  it("refuses every code once a challenge had five attempts, the right one included", async () => {
    const login = await signIn(admin.email, "pw-mfa-1");
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await challenge(login.mfa_challenge.id, { method: "totp", code: "000000" });
      expect([res.statusCode, res.json()]).toEqual([400, INVALID_CODE]);
    }
    const blocked = await challenge(login.mfa_challenge.id, {
      method: "totp",
      code: authenticatorCode(admin.secret, 1),
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      type: "too_many_requests",
      message: "Too many wrong codes for this MFA challenge: sign in again",
    });
    const [row] = await t.database.db
      .select()
      .from(authMfaChallenge)
      .where(eq(authMfaChallenge.id, login.mfa_challenge.id));
    expect(row).toMatchObject({ attempts: 5, completed_at: null });
  });

  it("refuses an expired or unknown challenge, and a body with unknown fields", async () => {
    const login = await signIn(admin.email, "pw-mfa-1");
    await t.database.db
      .update(authMfaChallenge)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(authMfaChallenge.id, login.mfa_challenge.id));
    const expired = await challenge(login.mfa_challenge.id, {
      method: "totp",
      code: authenticatorCode(admin.secret, 1),
    });
    expect(expired.json()).toEqual({
      type: "unauthorized",
      message: "The MFA challenge has expired or was already used: sign in again",
    });
    expect((await challenge("authmfachal_unknown", { method: "totp", code: "123456" })).statusCode).toBe(401);
    const fresh = await signIn(admin.email, "pw-mfa-1");
    for (const body of [{ method: "totp" }, { method: "sms", code: "123456" }, { method: "totp", code: "1", x: 1 }]) {
      const res = await challenge(fresh.mfa_challenge.id, body);
      expect([res.statusCode, res.json().type]).toEqual([400, "invalid_data"]);
    }
    // Refused bodies are no attempts.
    const [row] = await t.database.db
      .select()
      .from(authMfaChallenge)
      .where(eq(authMfaChallenge.id, fresh.mfa_challenge.id));
    expect(row!.attempts).toBe(0);
  });

  it("takes a recovery code in place of the app's code, each one once", async () => {
    const session = bearer(
      (
        await challenge((await signIn(admin.email, "pw-mfa-1")).mfa_challenge.id, {
          method: "totp",
          code: authenticatorCode(admin.secret, 1),
        })
      ).json().token,
    );
    const [first, second] = (await t.store.post("/auth/mfa/recovery-codes", {}, session)).json().recovery_codes;
    const login = await signIn(admin.email, "pw-mfa-1");
    expect(login.mfa_challenge.methods).toEqual(["totp", "recovery_code"]);
    const used = await challenge(login.mfa_challenge.id, { method: "recovery_code", code: ` ${first.toUpperCase()} ` });
    expect(used.statusCode, used.body).toBe(200);
    expect((await t.store.get("/admin/users/me", bearer(used.json().token))).statusCode).toBe(200);
    const again = await challenge((await signIn(admin.email, "pw-mfa-1")).mfa_challenge.id, {
      method: "recovery_code",
      code: first,
    });
    expect([again.statusCode, again.json()]).toEqual([400, INVALID_CODE]);
    const other = await challenge((await signIn(admin.email, "pw-mfa-1")).mfa_challenge.id, {
      method: "recovery_code",
      code: second,
    });
    expect(other.statusCode, other.body).toBe(200);
  });
});

describe("disabling MFA and other identities", () => {
  it("another identity neither sees nor verifies nor disables the factor", async () => {
    const owner = await enrolledAdmin("owner@kasse.test");
    const other = await newAdmin("other@kasse.test");
    expect((await t.store.get("/auth/mfa/factors", other.headers)).json()).toEqual({ mfa_factors: [] });
    const notFound = { type: "not_found", message: `MFA factor with id: ${owner.factorId} was not found` };
    const disable = await t.store.delete(
      `/auth/mfa/factors/${owner.factorId}`,
      { code: authenticatorCode(owner.secret, 1) },
      other.headers,
    );
    expect([disable.statusCode, disable.json()]).toEqual([404, notFound]);
    const verify = await t.store.post(`/auth/mfa/factors/${owner.factorId}/verify`, { code: "123456" }, other.headers);
    expect([verify.statusCode, verify.json()]).toEqual([404, notFound]);
    expect((await t.store.get("/auth/mfa/factors", owner.headers)).json().mfa_factors).toMatchObject([
      { id: owner.factorId, status: "enabled" },
    ]);
  });

  it("asks for a code before disabling an enabled factor; with it, sign-in needs the password only again", async () => {
    const admin = await enrolledAdmin("disable@kasse.test");
    expect((await t.store.post("/auth/mfa/recovery-codes", {}, admin.headers)).statusCode).toBe(200);
    const noCode = await t.store.delete(`/auth/mfa/factors/${admin.factorId}`, undefined, admin.headers);
    expect([noCode.statusCode, noCode.json()]).toEqual([400, { type: "invalid_data", message: MFA_CODE_REQUIRED }]);
    const wrong = await t.store.delete(
      `/auth/mfa/factors/${admin.factorId}`,
      { method: "totp", code: "000000" },
      admin.headers,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([400, INVALID_CODE]);
    expect((await signIn(admin.email, "pw-mfa-1")).mfa_required).toBe(true);

    const disabled = await t.store.delete(
      `/auth/mfa/factors/${admin.factorId}`,
      { method: "totp", code: authenticatorCode(admin.secret) },
      admin.headers,
    );
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().mfa_factor).toMatchObject({ id: admin.factorId, status: "disabled" });
    expect((await t.store.get("/auth/mfa/factors", admin.headers)).json()).toEqual({ mfa_factors: [] });
    const [left] = await queryRows<{ factors: number; codes: number }>(
      t.database.db,
      sql`select (select count(*)::int from auth_mfa_factor where id = ${admin.factorId}) as factors,
        (select count(*)::int from auth_mfa_recovery_code where auth_identity_id =
          (select auth_identity_id from provider_identity where entity_id = ${admin.email})) as codes`,
    );
    expect(left).toEqual({ factors: 0, codes: 0 });
    const login = await signIn(admin.email, "pw-mfa-1");
    expect(login.mfa_challenge).toBeUndefined();
    expect((await t.store.get("/admin/users/me", bearer(login.token))).statusCode).toBe(200);
  });

  it("serves the same routes under Medusa's dialect (/medusa)", async () => {
    const admin = await enrolledAdmin("dialect@kasse.test");
    const listed = await t.store.get("/medusa/auth/mfa/factors", admin.headers);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().mfa_factors).toMatchObject([{ id: admin.factorId, status: "enabled" }]);
    const login = await t.store.post("/medusa/auth/user/emailpass", { email: admin.email, password: "pw-mfa-1" });
    expect(login.json().mfa_required).toBe(true);
    const passed = await t.store.post(`/medusa/auth/mfa/challenges/${login.json().mfa_challenge.id}/verify`, {
      method: "totp",
      code: authenticatorCode(admin.secret),
    });
    expect(passed.statusCode, passed.body).toBe(200);
    expect((await t.store.get("/medusa/admin/users/me", bearer(passed.json().token))).statusCode).toBe(200);
  });
});

describe("guessing codes over many sign-ins", () => {
  it("opens no challenge for an identity whose recent sign-ins sent ten wrong codes, however right its password", async () => {
    const admin = await enrolledAdmin("guessed@kasse.test");
    for (let round = 0; round < 2; round++) {
      const { mfa_challenge } = await signIn(admin.email, "pw-mfa-1");
      for (let attempt = 0; attempt < MFA_CHALLENGE.maxAttempts; attempt++)
        expect((await challenge(mfa_challenge.id, { method: "totp", code: "000000" })).statusCode).toBe(400);
    }
    const locked = await t.store.post("/auth/user/emailpass", { email: admin.email, password: "pw-mfa-1" });
    expect([locked.statusCode, locked.json()]).toEqual([
      429,
      { type: "too_many_requests", message: "Too many wrong MFA codes for this account: try again in 15 minutes" },
    ]);
    // A wrong password is still just a wrong password.
    const wrong = await t.store.post("/auth/user/emailpass", { email: admin.email, password: "pw-wrong" });
    expect([wrong.statusCode, wrong.json().message]).toEqual([400, "Invalid email or password"]);
    // Once the window has passed, the password opens a challenge again.
    await t.database.db
      .update(authMfaChallenge)
      .set({ created_at: new Date(Date.now() - MFA_CHALLENGE.lockoutWindowMs - 1000) })
      .where(
        eq(
          authMfaChallenge.auth_identity_id,
          (await t.store.get("/auth/mfa/factors", admin.headers)).json().mfa_factors[0].auth_identity_id,
        ),
      );
    expect((await signIn(admin.email, "pw-mfa-1")).mfa_required).toBe(true);
  });
});
