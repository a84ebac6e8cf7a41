import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { captureLogs, createTestApp, type TestApp } from "./testing";
import { loggerOptions, stripQueryStrings } from "@kasse/runtime";

const logs = captureLogs();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      logger: logs.logger,
      extraRoutes: (app) => {
        // An outside call failing with its URL in the message, as HTTP clients word it.
        app.get("/test/upstream-failure", async () => {
          throw new Error("GET https://psp.example.com/v1/charges?api_key=sk_live_upstream_secret failed: 502");
        });
        app.get("/test/log-request", async (request) => {
          request.log.info(
            { req: request, res: { statusCode: 200, headers: { "set-cookie": "sid=cookie-out-secret" } } },
            `handling ${request.url}`,
          );
          return { ok: true };
        });
      },
    },
  );
});
afterAll(() => t.close());

const SECRET_HEADERS = {
  authorization: "Bearer header-jwt-secret",
  cookie: "connect.sid=cookie-in-secret",
  "x-service-access-token": "service-token-secret",
  "x-publishable-api-key": "pk_publishable_secret",
};

describe("request logging", () => {
  it("drops query strings from request lines, error logs and messages, and never logs credential headers", async () => {
    const failed = await t.app.inject({
      method: "GET",
      url: "/test/upstream-failure?token=query-reset-token",
      headers: SECRET_HEADERS,
    });
    expect(failed.statusCode).toBe(500);
    const logged = await t.app.inject({
      method: "GET",
      url: "/test/log-request?token=query-invite-token&api_token=query-api-token",
      headers: SECRET_HEADERS,
    });
    expect(logged.statusCode).toBe(200);
    const missing = await t.app.inject({ method: "GET", url: "/store/nowhere?token=query-404-token" });
    expect(missing.statusCode).toBe(404);

    const text = logs.text();
    expect(text).toContain('"msg":"unexpected error"');
    expect(text).toContain("https://psp.example.com/v1/charges failed: 502");
    expect(text).toContain('"url":"/test/upstream-failure"');
    expect(text).toContain("handling /test/log-request");
    expect(text).toContain('"url":"/store/nowhere"');
    for (const secret of [
      "sk_live_upstream_secret",
      "query-reset-token",
      "query-invite-token",
      "query-api-token",
      "query-404-token",
      ...Object.values(SECRET_HEADERS),
      "cookie-out-secret",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("a malformed request on a real socket (logged at trace with its raw bytes) leaks neither its headers nor its query", async () => {
    const before = logs.lines.length;
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write(
          "GET /store/products?token=raw-query-token HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer raw-header-secret\r\nContent-Length: nope\r\n\r\n",
        ),
      );
      socket.on("data", () => socket.end());
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    const text = logs.lines.slice(before).join("");
    expect(text).toContain("client error");
    expect(text).not.toContain("rawPacket");
    expect(text).not.toContain("raw-header-secret");
    expect(text).not.toContain("raw-query-token");
  });
});

describe("loggerOptions", () => {
  it("redacts bodies, passwords, tokens and credential headers wherever a log call puts them", () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions("trace"), { write: (line: string) => void lines.push(line) });
    logger.info(
      {
        body: { password: "body-password" },
        headers: { authorization: "Basic top-level-header" },
        password: "field-password",
        token: "field-token",
        user: { token: "nested-token", password: "nested-password" },
      },
      "fields",
    );
    logger.info(
      {
        upstream: { headers: { cookie: "nested-cookie", "idempotency-key": "nested-idem" }, payload: "nested-payload" },
      },
      "nested",
    );
    logger.error(
      Object.assign(new Error("failed at /auth/reset?token=error-token"), {
        headers: { authorization: "error-header" },
        params: ["error-param"],
      }),
    );
    const text = lines.join("");
    expect(text).toContain("failed at /auth/reset");
    for (const secret of [
      "body-password",
      "top-level-header",
      "field-password",
      "field-token",
      "nested-token",
      "nested-password",
      "nested-cookie",
      "nested-idem",
      "nested-payload",
      "error-token",
      "error-header",
      "error-param",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("strips the query string of paths and URLs, and nothing else", () => {
    expect(stripQueryStrings("GET /auth/customer/emailpass/reset?token=abc done")).toBe(
      "GET /auth/customer/emailpass/reset done",
    );
    expect(stripQueryStrings("see https://admin.example.com/invite?token=abc#x")).toBe(
      "see https://admin.example.com/invite#x",
    );
    expect(stripQueryStrings('"url":"/a?b=c"')).toBe('"url":"/a"');
    expect(stripQueryStrings("Is this fine? Yes: 3/4 of them.")).toBe("Is this fine? Yes: 3/4 of them.");
  });
});
