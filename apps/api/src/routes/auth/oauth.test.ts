import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { authOneTimeToken } from "@kasse/modules/auth/tables";
import { authenticatorCode } from "@kasse/modules/auth/testing";
import { createTestApp, type TestApp } from "../../testing";
import { oauthProvidersFromConfig } from "./oauth";
import { loadConfig } from "@kasse/runtime";

/**
 * A fake identity provider on loopback: an authorize endpoint that "approves" at once and
 * redirects back with a code, a token endpoint that checks client credentials, redirect URI and
 * PKCE, and userinfo endpoints answering the profile set for the next sign-in.
 */
async function startFakeIdp() {
  const idp = Fastify();
  const codes = new Map<
    string,
    { challenge: string; redirectUri: string; clientId: string; profile: Record<string, unknown> }
  >();
  const tokens = new Map<string, Record<string, unknown>>();
  const state = { profile: {} as Record<string, unknown>, emails: [] as unknown[], tokenRequests: 0 };
  idp.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  idp.get("/authorize", async (request, reply) => {
    const q = request.query as Record<string, string>;
    if (q.response_type !== "code" || q.code_challenge_method !== "S256" || !q.code_challenge)
      return reply.code(400).send({ error: "invalid_request" });
    const code = randomBytes(12).toString("hex");
    codes.set(code, {
      challenge: q.code_challenge,
      redirectUri: q.redirect_uri!,
      clientId: q.client_id!,
      profile: state.profile,
    });
    const back = new URL(q.redirect_uri!);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.state!);
    back.searchParams.set("scope", q.scope!);
    return reply.redirect(back.toString(), 302);
  });
  idp.post("/token", async (request, reply) => {
    state.tokenRequests++;
    const body = request.body as Record<string, string>;
    const grant = codes.get(body.code ?? "");
    codes.delete(body.code ?? "");
    const verifierOk =
      grant &&
      createHash("sha256")
        .update(body.code_verifier ?? "")
        .digest("base64url") === grant.challenge;
    if (
      !grant ||
      !verifierOk ||
      body.client_secret !== "idp-secret" ||
      body.client_id !== grant.clientId ||
      body.redirect_uri !== grant.redirectUri ||
      body.grant_type !== "authorization_code"
    ) {
      return reply.code(400).send({ error: "invalid_grant" });
    }
    const accessToken = randomBytes(16).toString("hex");
    tokens.set(accessToken, grant.profile);
    return { access_token: accessToken, token_type: "Bearer" };
  });
  const profileOf = (authorization: string | undefined) => tokens.get((authorization ?? "").replace(/^Bearer /, ""));
  idp.get(
    "/userinfo",
    async (request, reply) =>
      profileOf(request.headers.authorization) ?? reply.code(401).send({ error: "invalid_token" }),
  );
  idp.get("/user/emails", async (request, reply) =>
    profileOf(request.headers.authorization) ? state.emails : reply.code(401).send({ error: "invalid_token" }),
  );

  await idp.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}`;
  return { idp, base, state };
}

let t: TestApp;
let fake: Awaited<ReturnType<typeof startFakeIdp>>;
const STORE = "http://store.test";

beforeAll(async () => {
  fake = await startFakeIdp();
  t = await createTestApp({
    GOOGLE_CLIENT_ID: "google-client",
    GOOGLE_CLIENT_SECRET: "idp-secret",
    GOOGLE_CALLBACK_URL: `${STORE}/auth/google/callback`,
    GOOGLE_AUTHORIZE_URL: `${fake.base}/authorize`,
    GOOGLE_TOKEN_URL: `${fake.base}/token`,
    GOOGLE_USERINFO_URL: `${fake.base}/userinfo`,
    GITHUB_CLIENT_ID: "github-client",
    GITHUB_CLIENT_SECRET: "idp-secret",
    GITHUB_CALLBACK_URL: `${STORE}/auth/github/callback`,
    GITHUB_AUTHORIZE_URL: `${fake.base}/authorize`,
    GITHUB_TOKEN_URL: `${fake.base}/token`,
    GITHUB_USERINFO_URL: `${fake.base}/userinfo`,
    GITHUB_EMAILS_URL: `${fake.base}/user/emails`,
    GITHUB_SUCCESS_REDIRECT_URL: `${STORE}/account`,
  });
});
afterAll(async () => {
  await t.close();
  await fake.idp.close();
});

const googleProfile = (sub: string, extra: Record<string, unknown> = {}) => ({
  sub,
  email: `${sub}@gmail.test`,
  email_verified: true,
  name: "Ana Lima",
  given_name: "Ana",
  family_name: "Lima",
  picture: "https://pics.test/ana.png",
  ...extra,
});

/** Starts a sign-in, lets the fake provider approve it, and returns the callback's query string. */
async function approve(startUrl: string): Promise<{ query: string; location: URL }> {
  const start = await t.store.get(startUrl);
  expect(start.statusCode, start.body).toBe(302);
  const location = new URL(start.headers.location as string);
  const consent = await fetch(location, { redirect: "manual" });
  expect(consent.status).toBe(302);
  return { query: new URL(consent.headers.get("location")!).search, location };
}

describe("oauth: the providers a login page offers", () => {
  it("lists email and password as a form and each configured OAuth provider as a redirect", async () => {
    const res = await t.store.get("/auth/user/providers");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      providers: [
        { id: "emailpass", identifier: "emailpass", display_name: "Email and password", flow: "credentials" },
        { id: "github", identifier: "github", display_name: "GitHub", flow: "redirect" },
        { id: "google", identifier: "google", display_name: "Google", flow: "redirect" },
      ],
    });
  });
});

describe("oauth: google", () => {
  it("redirects with a signed state and PKCE; the callback creates the identity with the profile and answers a token", async () => {
    fake.state.profile = googleProfile("g-100");
    const { query, location } = await approve("/auth/customer/google");
    expect(`${location.origin}${location.pathname}`).toBe(`${fake.base}/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "google-client",
      redirect_uri: `${STORE}/auth/google/callback`,
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(location.searchParams.get("state")).toMatch(/^[\w-]+\.[\w-]+$/);
    // The PKCE verifier stays on the server: only its challenge travels.
    expect(location.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);

    const res = await t.store.get(`/auth/customer/google/callback${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const claims = await t.app.tokens.verify(res.json().token);
    // No customer yet: a registration token, finished by POST /store/customers.
    expect(claims).toMatchObject({ actor_type: "customer", actor_id: "" });
    const identity = await t.app.modules.auth.findByProvider("google", "g-100");
    expect(identity?.id).toBe(claims.auth_identity_id);
    expect(identity?.provider_identities[0]?.user_metadata).toEqual({
      email: "g-100@gmail.test",
      name: "Ana Lima",
      picture: "https://pics.test/ana.png",
      given_name: "Ana",
      family_name: "Lima",
    });

    const created = await t.app.inject({
      method: "POST",
      url: "/store/customers",
      headers: { authorization: `Bearer ${res.json().token}` },
      payload: { email: "g-100@gmail.test", first_name: "Ana" },
    });
    expect(created.statusCode, created.body).toBe(200);

    // Signing in again updates the profile and answers the customer's token.
    fake.state.profile = googleProfile("g-100", { name: "Ana L. Lima", picture: "https://pics.test/new.png" });
    const again = await approve("/auth/customer/google");
    const second = await t.store.get(`/auth/customer/google/callback${again.query}`);
    expect(second.statusCode).toBe(200);
    const customerClaims = await t.app.tokens.verify(second.json().token);
    expect(customerClaims.actor_id).toBe(created.json().customer.id);
    const me = await t.store.get("/store/customers/me", { authorization: `Bearer ${second.json().token}` });
    expect(me.json().customer.email).toBe("g-100@gmail.test");
    const updated = await t.app.modules.auth.findByProvider("google", "g-100");
    expect(updated?.provider_identities[0]?.user_metadata).toMatchObject({
      name: "Ana L. Lima",
      picture: "https://pics.test/new.png",
    });
  });

  it("an owner Google vouches for takes the address from an unproven squat; the account is then theirs alone", async () => {
    // A squatter registers the address with a password, makes the customer and saves an address.
    const squat = await t.store.post("/store/customers", { email: "g-200@gmail.test", password: "squat-pass-1" });
    const squatter = {
      authorization: `Bearer ${(await t.store.post("/auth/customer/emailpass", { email: "g-200@gmail.test", password: "squat-pass-1" })).json().token}`,
    };
    await t.store.post(
      "/store/customers/me/addresses",
      { address_1: "1 Squat Lane", city: "Berlin", postal_code: "10115", country_code: "de" },
      squatter,
    );

    fake.state.profile = googleProfile("g-200");
    const { query } = await approve("/auth/customer/google");
    const registration = {
      authorization: `Bearer ${(await t.store.get(`/auth/customer/google/callback${query}`)).json().token}`,
    };
    // Its own (verified) address only.
    const other = await t.store.post("/store/customers", { email: "someone@else.test" }, registration);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      "A customer account can only be registered for the email of its sign-in: g-200@gmail.test",
    );
    const created = await t.store.post(
      "/store/customers",
      { email: "g-200@gmail.test", first_name: "Ana" },
      registration,
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().customer).toMatchObject({ email: "g-200@gmail.test", first_name: "Ana", addresses: [] });
    expect(created.json().customer.id).not.toBe(squat.json().customer.id);

    // The squat is closed: its customer deleted, its password and session ended.
    const admin = await t.adminHeaders();
    expect((await t.store.get(`/admin/customers/${squat.json().customer.id}`, admin)).statusCode).toBe(404);
    expect((await t.store.get("/store/customers/me", squatter)).statusCode).toBe(401);
    expect(
      (await t.store.post("/auth/customer/emailpass", { email: "g-200@gmail.test", password: "squat-pass-1" }))
        .statusCode,
    ).toBe(400);

    // Now the address is held by a proven sign-in: a new emailpass identity cannot make a customer with it.
    const again = await t.store.post("/auth/customer/emailpass/register", {
      email: "g-200@gmail.test",
      password: "squat-pass-2",
    });
    const late = await t.store.post(
      "/store/customers",
      { email: "g-200@gmail.test" },
      {
        authorization: `Bearer ${again.json().token}`,
      },
    );
    expect(late.statusCode).toBe(409);
    expect((await t.store.get(`/admin/customers?email=g-200@gmail.test`, admin)).json().count).toBe(1);
  });

  it("refuses an unverified email with 401 and creates nothing", async () => {
    fake.state.profile = googleProfile("g-unverified", { email_verified: false });
    const { query } = await approve("/auth/customer/google");
    const res = await t.store.get(`/auth/customer/google/callback${query}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().type).toBe("unauthorized");
    expect(await t.app.modules.auth.findByProvider("google", "g-unverified")).toBeNull();
    fake.state.profile = googleProfile("g-stringy", { email_verified: "true" });
    const stringy = await approve("/auth/customer/google");
    expect((await t.store.get(`/auth/customer/google/callback${stringy.query}`)).statusCode).toBe(401);
  });

  it("rejects reused, forged, expired, cross-provider and cross-actor states with 401", async () => {
    fake.state.profile = googleProfile("g-200");
    const { query } = await approve("/auth/customer/google");
    expect((await t.store.get(`/auth/customer/google/callback${query}`)).statusCode).toBe(200);
    const reused = await t.store.get(`/auth/customer/google/callback${query}`);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().type).toBe("unauthorized");

    const fresh = await approve("/auth/customer/google");
    const params = new URLSearchParams(fresh.query);
    const [payload, signature] = params.get("state")!.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forge = (changes: Record<string, unknown>) =>
      `${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString("base64url")}.${signature}`;
    const withState = (state: string) => {
      const p = new URLSearchParams(params);
      p.set("state", state);
      return `?${p.toString()}`;
    };
    for (const state of [
      forge({ e: Date.now() + 3_600_000 }),
      forge({ a: "user" }),
      `${payload}.${Buffer.from("x".repeat(32)).toString("base64url")}`,
      "garbage",
      `${payload}`,
      "",
    ]) {
      const res = await t.store.get(`/auth/customer/google/callback${withState(state)}`);
      expect(res.statusCode, state).toBe(401);
    }
    // The state is bound to its provider and actor type.
    expect((await t.store.get(`/auth/customer/github/callback${fresh.query}`)).statusCode).toBe(401);
    expect((await t.store.get(`/auth/user/google/callback${fresh.query}`)).statusCode).toBe(401);
    // Expired server-side: 401, and the code is never exchanged.
    await t.database.db
      .update(authOneTimeToken)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(authOneTimeToken.kind, "oauth_state"));
    const before = fake.state.tokenRequests;
    expect((await t.store.get(`/auth/customer/google/callback${fresh.query}`)).statusCode).toBe(401);
    expect(fake.state.tokenRequests).toBe(before);
  });

  it("a code the provider refuses, a missing code or state, and a provider error answer 401", async () => {
    fake.state.profile = googleProfile("g-300");
    const { query } = await approve("/auth/customer/google");
    const params = new URLSearchParams(query);
    params.set("code", "not-a-code");
    expect((await t.store.get(`/auth/customer/google/callback?${params}`)).statusCode).toBe(401);
    expect((await t.store.get(`/auth/customer/google/callback?state=${params.get("state")}`)).statusCode).toBe(401);
    expect((await t.store.get("/auth/customer/google/callback?code=abc")).statusCode).toBe(401);
    expect(
      (await t.store.get(`/auth/customer/google/callback?error=access_denied&state=${params.get("state")}`)).statusCode,
    ).toBe(401);
  });

  it("the contract's /auth/google forms act for the customer; POST answers {location}; unknown providers are 404", async () => {
    fake.state.profile = googleProfile("g-400");
    const { query } = await approve("/auth/google");
    const res = await t.store.get(`/auth/google/callback${query}`);
    expect(res.statusCode).toBe(200);
    expect((await t.app.tokens.verify(res.json().token)).actor_type).toBe("customer");

    const post = await t.app.inject({ method: "POST", url: "/auth/customer/google", payload: {} });
    expect(post.statusCode).toBe(200);
    expect(post.json().location).toContain(`${fake.base}/authorize?`);

    expect((await t.store.get("/auth/customer/facebook")).statusCode).toBe(404);
    expect((await t.store.get("/auth/customer/facebook/callback?code=a&state=b")).statusCode).toBe(404);
    expect((await t.store.get("/auth/vendor/google")).statusCode).toBe(400);
    expect((await t.store.get("/auth/customer/emailpass")).statusCode).toBe(400);
  });

  it("an admin cannot sign in through OAuth without a linked user (401)", async () => {
    fake.state.profile = googleProfile("g-500");
    const { query } = await approve("/auth/user/google");
    const res = await t.store.get(`/auth/user/google/callback${query}`);
    expect(res.statusCode).toBe(401);
  });

  it("an identity with MFA gets the challenge from the callback, and the session token only for its code", async () => {
    fake.state.profile = googleProfile("g-mfa");
    const first = await t.store.get(`/auth/customer/google/callback${(await approve("/auth/customer/google")).query}`);
    const session = { authorization: `Bearer ${first.json().token}` };
    const setup = (await t.store.post("/auth/mfa/factors", { provider: "totp" }, session)).json();
    const verify = { code: authenticatorCode(setup.secret, -1) };
    expect((await t.store.post(`/auth/mfa/factors/${setup.mfa_factor.id}/verify`, verify, session)).statusCode).toBe(
      200,
    );

    const again = await t.store.get(`/auth/customer/google/callback${(await approve("/auth/customer/google")).query}`);
    expect(again.statusCode, again.body).toBe(200);
    const { token, mfa_required, mfa_challenge } = again.json();
    expect({ mfa_required, mfa_challenge }).toMatchObject({
      mfa_required: true,
      mfa_challenge: { actor_type: "customer", auth_provider: "google", methods: ["totp"] },
    });
    await expect(t.app.tokens.verify(token)).rejects.toMatchObject({ type: "unauthorized" });
    const code = { method: "totp", code: authenticatorCode(setup.secret) };
    const passed = await t.store.post(`/auth/mfa/challenges/${mfa_challenge.id}/verify`, code);
    expect(passed.statusCode, passed.body).toBe(200);
    const claims = await t.app.tokens.verify(passed.json().token);
    expect(claims).toMatchObject({ actor_type: "customer", auth_identity_id: setup.mfa_factor.auth_identity_id });
  });
});

describe("oauth: github", () => {
  it("reads the primary verified email when the profile has none, and answers {location} with the configured success redirect", async () => {
    fake.state.profile = {
      id: 4242,
      login: "octo",
      name: "Octo Cat Jr",
      avatar_url: "https://avatars.test/octo.png",
      email: null,
    };
    fake.state.emails = [
      { email: "old@octo.test", primary: false, verified: true },
      { email: "Octo@Octo.test", primary: true, verified: true },
    ];
    const { query, location } = await approve("/auth/customer/github");
    expect(location.searchParams.get("scope")).toBe("read:user user:email");
    const res = await t.store.get(`/auth/customer/github/callback${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const target = new URL(res.json().location);
    expect(`${target.origin}${target.pathname}`).toBe(`${STORE}/account`);
    const claims = await t.app.tokens.verify(target.searchParams.get("auth_token")!);
    expect(claims.actor_type).toBe("customer");
    const identity = await t.app.modules.auth.findByProvider("github", "4242");
    expect(identity?.provider_identities[0]?.verified_email).toBe("octo@octo.test");
    expect(identity?.provider_identities[0]?.user_metadata).toEqual({
      email: "octo@octo.test",
      name: "Octo Cat Jr",
      picture: "https://avatars.test/octo.png",
      given_name: "Octo",
      family_name: "Cat Jr",
      login: "octo",
    });
  });
});

describe("oauth: github's verified addresses", () => {
  it("a public email GitHub did not verify is shown but proves nothing: the customer account is for the verified one", async () => {
    fake.state.profile = { id: 4343, login: "mona", name: "Mona", email: "Mona@Public.test" };
    fake.state.emails = [{ email: "mona@verified.test", primary: true, verified: true }];
    const { query } = await approve("/auth/customer/github");
    const target = new URL((await t.store.get(`/auth/customer/github/callback${query}`)).json().location);
    const registration = { authorization: `Bearer ${target.searchParams.get("auth_token")}` };
    const identity = await t.app.modules.auth.findByProvider("github", "4343");
    expect(identity?.provider_identities[0]).toMatchObject({
      verified_email: "mona@verified.test",
      user_metadata: expect.objectContaining({ email: "mona@public.test" }),
    });
    expect((await t.store.post("/store/customers", { email: "mona@public.test" }, registration)).statusCode).toBe(403);
    expect((await t.store.post("/store/customers", { email: "mona@verified.test" }, registration)).statusCode).toBe(
      200,
    );
  });
});

describe("oauth providers", () => {
  it("raise an error on register and update; a half-configured provider is a start-up error", async () => {
    await expect(
      t.app.modules.auth.register("google", { body: { email: "a@b.co", password: "x" } }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    await expect(
      t.app.modules.auth.update("github", { body: { email: "a@b.co", password: "x" }, authIdentityId: "authid_x" }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    const config = loadConfig({
      JWT_SECRET: "x".repeat(32),
      DATABASE_URL: "postgres://x",
      GOOGLE_CLIENT_ID: "only-the-id",
    });
    expect(() => oauthProvidersFromConfig(config)).toThrow(/must be set together/);
    expect(
      oauthProvidersFromConfig(loadConfig({ JWT_SECRET: "x".repeat(32), DATABASE_URL: "postgres://x" })).providers,
    ).toEqual([]);
  });
});
