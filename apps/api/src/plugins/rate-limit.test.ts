import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { openRedis } from "@kasse/runtime";
import { createTestApp, type TestApp } from "../testing";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
// A fresh client address per run: counters live in Redis and outlast the test process.
const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let redis: Redis;
let t: TestApp;
beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  t = await createTestApp(
    { RATE_LIMIT_MAX: "3", RATE_LIMIT_AUTH_MAX: "2", RATE_LIMIT_WINDOW_MS: "60000" },
    {
      redis,
      extraRoutes: (app) => {
        app.post("/auth/test/login", async () => ({ ok: true }));
      },
    },
  );
});
afterAll(async () => {
  await t.close();
  await redis.quit();
});

const get = (url: string, from = ip) => t.app.inject({ method: "GET", url, remoteAddress: from });

describe("rate limiting (Redis store)", () => {
  it("answers 429 too_many_requests with retry-after once a client exceeds the budget", async () => {
    for (let i = 0; i < 3; i++) expect((await get("/health")).statusCode).toBe(200);
    const limited = await get("/health");
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ type: "too_many_requests", message: expect.stringMatching(/^Too many requests/) });
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Unknown routes count and are refused as well; so are requests with credentials (checked first).
    expect((await get("/nope")).statusCode).toBe(429);
    const withToken = await t.app.inject({
      method: "GET",
      url: "/admin/sales-channels",
      remoteAddress: ip,
      headers: await t.adminHeaders(),
    });
    expect(withToken.statusCode).toBe(429);
    // Without TRUST_PROXY a client cannot pick another rate-limit key through X-Forwarded-For.
    const spoofed = await t.app.inject({
      method: "GET",
      url: "/health",
      remoteAddress: ip,
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(spoofed.statusCode).toBe(429);
  });

  it("keeps the counters in Redis, shared by every API process", async () => {
    // Under the install's prefix: two installs sharing a Redis keep their own counters.
    const key = `${t.config.redisPrefix}:rate-limit:all:${ip}`;
    expect(t.config.redisPrefix).toMatch(/^kasse-[0-9a-f]{8}$/);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(Number(await redis.get(key))).toBeGreaterThanOrEqual(4);
  });

  it("counts clients separately", async () => {
    expect((await get("/health", `${ip.split(".").slice(0, 3).join(".")}.0`)).statusCode).toBe(200);
  });

  it("gives /auth/* its own, lower budget", async () => {
    const login = () => t.app.inject({ method: "POST", url: "/auth/test/login", remoteAddress: ip });
    expect((await login()).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
    const limited = await login();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().type).toBe("too_many_requests");
    expect(limited.headers["retry-after"]).toBeDefined();
  });

  it("counts a percent-encoded auth path in the auth budget (the route decides, not the URL's text)", async () => {
    const from = `${ip.split(".").slice(0, 3).join(".")}.0`;
    const login = (url: string) => t.app.inject({ method: "POST", url, remoteAddress: from });
    expect((await login("/%61uth/test/login")).statusCode).toBe(200);
    expect((await login("/a%75th/test/login")).statusCode).toBe(200);
    expect((await login("/%61uth/test/login")).statusCode).toBe(429);
  });
});

describe("rate limiting with Redis away", () => {
  it("lets every request through at once (fails open), the process's client failing fast", async () => {
    const away = await openRedis("redis://127.0.0.1:1", { info: () => {}, warn: () => {}, error: () => {} });
    const open = await createTestApp({ RATE_LIMIT_MAX: "1", RATE_LIMIT_AUTH_MAX: "1" }, { redis: away.client });
    try {
      const started = Date.now();
      for (let i = 0; i < 5; i++)
        expect((await open.app.inject({ method: "GET", url: "/health", remoteAddress: ip })).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await open.close();
      await away.close();
    }
  });
});

describe("rate limiting off", () => {
  it("does not limit when the budgets are 0", async () => {
    const off = await createTestApp();
    try {
      for (let i = 0; i < 20; i++)
        expect((await off.app.inject({ method: "GET", url: "/health", remoteAddress: ip })).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});
