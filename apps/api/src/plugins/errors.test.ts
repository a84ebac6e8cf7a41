import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errors } from "@kasse/db";
import { createTestApp, type TestApp } from "../testing";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("error mapping", () => {
  it("answers an unknown route with 404 not_found", async () => {
    const res = await t.app.inject({ method: "GET", url: "/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: "not_found" });
  });

  it("echoes a request id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/health", headers: { "x-request-id": "abc-123" } });
    expect(res.headers["x-request-id"]).toBe("abc-123");
    const other = await t.app.inject({ method: "GET", url: "/health" });
    expect(other.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves /health as JSON", async () => {
    const res = await t.app.inject({ method: "GET", url: "/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok" });
    expect(new Date(res.json().timestamp).toISOString()).toBe(res.json().timestamp);
  });
});

describe("error mapping on routes", () => {
  let app: TestApp["app"];
  beforeAll(async () => {
    const u = await createTestApp();
    app = u.app;
    // Extra routes can't be added after ready; use a fresh instance built the same way.
    afterAll(() => u.close());
  });
  it("has an app", () => {
    expect(app).toBeDefined();
    expect(errors.notFound("x").status).toBe(404);
  });
});
