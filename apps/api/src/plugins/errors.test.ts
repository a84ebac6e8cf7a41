import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { errorCatalog, errors, KasseError, toKasseError, type ErrorType } from "@kasse/core";
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
  let u: TestApp;
  beforeAll(async () => {
    // Extra routes can't be added after ready(): a second app registers them at build time.
    u = await createTestApp(
      {},
      {
        extraRoutes: (app) => {
          app.post(
            "/test/echo",
            {
              schema: {
                body: Type.Object(
                  { name: Type.String({ minLength: 1 }), qty: Type.Optional(Type.Integer({ minimum: 1 })) },
                  { additionalProperties: false },
                ),
              },
            },
            async (request) => ({ echo: request.body }),
          );
          app.get("/test/domain/:type", async (request) => {
            throw new KasseError((request.params as { type: ErrorType }).type, "domain failure");
          });
          app.get("/test/crash", async () => {
            throw new TypeError("secret internal detail at /srv/app.ts:42");
          });
          app.get("/test/crash-sync", () => {
            throw new Error("sync detail");
          });
          // What a workflow step's failed query becomes: a plain error wrapped as `unknown_error`.
          app.get("/test/crash-wrapped", () => {
            throw toKasseError(new Error('Failed query: insert into "order_change" values ($1) params: secret'));
          });
        },
      },
    );
  });
  afterAll(() => u.close());

  const echo = (payload: string, contentType = "application/json") =>
    u.app.inject({ method: "POST", url: "/test/echo", headers: { "content-type": contentType }, payload });

  it("answers malformed JSON with 400 invalid_data", async () => {
    const res = await echo("{bad");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ type: "invalid_data", message: "Malformed JSON in request body" });
  });

  it("answers schema failures with 400 invalid_data naming the field", async () => {
    const cases: Array<[string, RegExp]> = [
      ["{}", /Field 'name' is required in body/],
      ['{"name":"a","extra":1}', /Unrecognized field 'extra' in body/],
      ['{"name":5}', /Field 'name' must be string/],
      ['{"name":"a","qty":0}', /Field 'qty' must be >= 1/],
      ['{"name":"a","qty":"2"}', /Field 'qty' must be integer/],
    ];
    for (const [payload, message] of cases) {
      const res = await echo(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(res.json().message).toMatch(message);
    }
    expect((await echo('{"name":"a","qty":2}')).json()).toEqual({ echo: { name: "a", qty: 2 } });
  });

  it("answers an unsupported content type with 415 invalid_data and an oversized body with 413", async () => {
    const text = await echo("<name>a</name>", "application/xml");
    expect(text.statusCode).toBe(415);
    expect(text.json().type).toBe("invalid_data");
    const big = await echo(JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }));
    expect(big.statusCode).toBe(413);
    expect(big.json().type).toBe("invalid_data");
  });

  it("maps every typed domain error to its status and type", async () => {
    for (const [type, entry] of Object.entries(errorCatalog)) {
      const res = await u.app.inject({ method: "GET", url: `/test/domain/${type}` });
      expect(res.statusCode, type).toBe(entry.status);
      // A 500's message is internal (the log keeps it); every other type's message is for the caller.
      expect(res.json()).toEqual({
        type,
        message: entry.status === 500 ? "An unknown error occurred." : "domain failure",
      });
    }
    expect(errors.notFound("x").status).toBe(404);
  });

  it("answers an unexpected error with 500 unknown_error and no detail", async () => {
    for (const url of ["/test/crash", "/test/crash-sync", "/test/crash-wrapped"]) {
      const res = await u.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ type: "unknown_error", message: "An unknown error occurred." });
      expect(res.body).not.toMatch(/detail|stack|\.ts|query|secret/);
    }
  });
});
