import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing";

const SHOP = "https://shop.example";
const BACKOFFICE = "https://admin.example";
const LOGIN = "https://login.example";
const EVIL = "https://evil.example";

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({
    STORE_CORS: SHOP,
    ADMIN_CORS: BACKOFFICE,
    AUTH_CORS: `${LOGIN}, ${SHOP}`,
    RATE_LIMIT_MAX: "2",
  });
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

// Every request from its own address, so the rate limit (2 per window, for the 429 case) only bites where meant.
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const send = (method: string, url: string, headers: Record<string, string> = {}, remoteAddress = address()) =>
  t.app.inject({ method: method as "GET", url, headers, remoteAddress });
const preflight = (url: string, origin: string, method = "POST") =>
  send("OPTIONS", url, {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": "content-type,x-publishable-api-key",
  });
const allowedOrigin = (res: Awaited<ReturnType<typeof send>>) => res.headers["access-control-allow-origin"];

describe("CORS origins per route group", () => {
  it("a group's origin is allowed on that group's routes only", async () => {
    const store = await send("GET", "/store/regions", { origin: SHOP });
    expect(store.statusCode).toBe(200);
    expect(allowedOrigin(store)).toBe(SHOP);
    expect(store.headers["access-control-allow-credentials"]).toBe("true");
    expect(store.headers["access-control-expose-headers"]).toBe("x-request-id, retry-after");
    expect(store.headers.vary).toContain("Origin");

    const shopOnAdmin = await send("GET", "/admin/sales-channels", { origin: SHOP, ...admin });
    expect(shopOnAdmin.statusCode).toBe(200);
    expect(allowedOrigin(shopOnAdmin)).toBeUndefined();
    expect(allowedOrigin(await send("GET", "/admin/sales-channels", { origin: BACKOFFICE, ...admin }))).toBe(
      BACKOFFICE,
    );
    expect(allowedOrigin(await send("GET", "/store/regions", { origin: BACKOFFICE }))).toBeUndefined();

    const login = { origin: LOGIN, "content-type": "application/json" };
    expect(allowedOrigin(await send("POST", "/auth/user/emailpass", login))).toBe(LOGIN);
    expect(allowedOrigin(await send("POST", "/auth/user/emailpass", { ...login, origin: SHOP }))).toBe(SHOP);
    expect(allowedOrigin(await send("POST", "/auth/user/emailpass", { ...login, origin: BACKOFFICE }))).toBeUndefined();
    for (const url of ["/store/regions", "/admin/sales-channels", "/auth/user/emailpass"]) {
      expect(allowedOrigin(await send("GET", url, { origin: EVIL, ...admin })), url).toBeUndefined();
    }
  });

  it("follows the route, not the path's spelling", async () => {
    expect(allowedOrigin(await send("GET", "/%61dmin/sales-channels", { origin: SHOP, ...admin }))).toBeUndefined();
    expect(allowedOrigin(await send("GET", "/%61dmin/sales-channels", { origin: BACKOFFICE, ...admin }))).toBe(
      BACKOFFICE,
    );
    expect(allowedOrigin(await send("GET", "/%73tore/regions", { origin: SHOP }))).toBe(SHOP);
    expect(allowedOrigin(await preflight("/%61dmin/products", SHOP))).toBeUndefined();
  });

  it("refusals a browser must read carry the headers: 401 on /admin, 400 for a bad publishable key, 429", async () => {
    const unauthenticated = await send("GET", "/admin/products", { origin: BACKOFFICE });
    expect(unauthenticated.statusCode).toBe(401);
    expect(allowedOrigin(unauthenticated)).toBe(BACKOFFICE);
    const badKey = await send("GET", "/store/products", { origin: SHOP, "x-publishable-api-key": "pk_unknown" });
    expect(badKey.statusCode).toBe(400);
    expect(allowedOrigin(badKey)).toBe(SHOP);
    const from = address();
    for (let i = 0; i < 2; i++) await send("GET", "/store/regions", { origin: SHOP }, from);
    const limited = await send("GET", "/store/regions", { origin: SHOP }, from);
    expect(limited.statusCode).toBe(429);
    expect(allowedOrigin(limited)).toBe(SHOP);
  });

  it("routes outside the groups and unknown paths send no CORS headers", async () => {
    expect(allowedOrigin(await send("GET", "/health", { origin: SHOP }))).toBeUndefined();
    const unknown = await send("GET", "/store-nothing", { origin: SHOP });
    expect(unknown.statusCode).toBe(404);
    expect(allowedOrigin(unknown)).toBeUndefined();
  });
});

describe("preflight OPTIONS per group", () => {
  it("answers 204 with the allowed methods and headers for the group's origins", async () => {
    for (const [url, origin] of [
      ["/store/carts", SHOP],
      ["/admin/products", BACKOFFICE],
      ["/auth/user/emailpass", LOGIN],
      ["/auth/customer/emailpass", SHOP],
    ] as const) {
      const res = await preflight(url, origin);
      expect(res.statusCode, url).toBe(204);
      expect(allowedOrigin(res), url).toBe(origin);
      expect(res.headers["access-control-allow-methods"], url).toContain("POST");
      expect(res.headers["access-control-allow-headers"], url).toBe("content-type,x-publishable-api-key");
      expect(res.headers["access-control-allow-credentials"], url).toBe("true");
    }
  });

  it("refuses another group's origin, or any other, with {type, message} and no CORS headers", async () => {
    for (const [url, origin, status] of [
      ["/store/carts", BACKOFFICE, 403],
      ["/store/carts", EVIL, 403],
      ["/auth/user/emailpass", BACKOFFICE, 403],
      ["/admin/products", SHOP, 401],
      ["/admin/products", EVIL, 401],
    ] as const) {
      const res = await preflight(url, origin);
      expect(res.statusCode, `${origin} on ${url}`).toBe(status);
      expect(allowedOrigin(res), url).toBeUndefined();
      expect(res.json(), url).toEqual({
        type: status === 403 ? "not_allowed" : "unauthorized",
        message: expect.any(String),
      });
    }
  });
});

describe("* allows any origin", () => {
  it("echoes the caller's origin (credentials are allowed, so never a literal *)", async () => {
    const open = await createTestApp();
    try {
      const res = await open.app.inject({ method: "GET", url: "/store/regions", headers: { origin: EVIL } });
      expect(res.headers["access-control-allow-origin"]).toBe(EVIL);
      const admin = await open.app.inject({
        method: "OPTIONS",
        url: "/admin/products",
        headers: { origin: EVIL, "access-control-request-method": "POST" },
      });
      expect(admin.statusCode).toBe(204);
      expect(admin.headers["access-control-allow-origin"]).toBe(EVIL);
    } finally {
      await open.close();
    }
  });
});
