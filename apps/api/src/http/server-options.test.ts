import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing";
import { ConfigError, loadConfig } from "@kasse/runtime";

// Short limits so the tests run in seconds; the defaults (10 s headers, 25 s request, 5 s idle) are
// the same mechanism with larger numbers.
const HEADERS_MS = 600;
const REQUEST_MS = 1_200;
const KEEP_ALIVE_MS = 400;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp(
    {
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
    },
    {
      extraRoutes: (app) => {
        app.get("/test/slow-handler", async () => {
          await new Promise((resolve) => setTimeout(resolve, REQUEST_MS + 500));
          return { done: true };
        });
      },
    },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

interface Exchange {
  /** Everything the server wrote before it closed the connection. */
  raw: string;
  /** Milliseconds from connecting to the server closing the connection. */
  closedAfterMs: number;
}

/** Opens a raw connection, lets `drive` write to it, and resolves once the server closes it. */
function exchange(drive: (socket: Socket) => void, giveUpMs = 10_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: "127.0.0.1" });
    let raw = "";
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms; it sent: ${raw}`));
    }, giveUpMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (raw += chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve({ raw, closedAfterMs: Date.now() - started });
    });
    socket.on("connect", () => drive(socket));
  });
}

/** Status and JSON body of the last response in `raw`. */
function lastResponse(raw: string): { status: number; headers: string; body: unknown } {
  const start = raw.lastIndexOf("HTTP/1.1 ");
  const text = raw.slice(start);
  const [head, ...rest] = text.split("\r\n\r\n");
  return { status: Number(head!.split(" ")[1]), headers: head!.toLowerCase(), body: JSON.parse(rest.join("\r\n\r\n")) };
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs = 40): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer);
    socket.write(text[i % text.length]!);
    i += 1;
  }, everyMs);
  socket.on("close", () => clearInterval(timer));
}

describe("slow clients are cut", () => {
  it("headers sent one byte at a time: 408 {type, message} and closed within the headers timeout", async () => {
    // A header line that never ends: a steady trickle keeps an idle-socket timer from ever firing.
    const { raw, closedAfterMs } = await exchange((socket) =>
      trickle(socket, `GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(100_000)}`),
    );
    const response = lastResponse(raw);
    expect(response.status).toBe(408);
    expect(response.headers).toContain("content-type: application/json");
    expect(response.body).toEqual({ type: "timeout", message: expect.any(String) });
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    expect(closedAfterMs).toBeLessThan(HEADERS_MS + 1_000);
  });

  it("a body sent one byte at a time: 408 and closed within the request timeout", async () => {
    const { raw, closedAfterMs } = await exchange((socket) => {
      socket.write(
        "POST /store/carts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
      );
      trickle(socket, '{"metadata":{"a":"' + "b".repeat(100_000));
    });
    const response = lastResponse(raw);
    expect(response.status).toBe(408);
    expect(response.body).toEqual({ type: "timeout", message: expect.any(String) });
    expect(closedAfterMs).toBeLessThan(REQUEST_MS + 1_000);
  });

  it("a connection that never sends anything is closed within the headers timeout", async () => {
    const { raw, closedAfterMs } = await exchange(() => {});
    expect(closedAfterMs).toBeLessThan(HEADERS_MS + 1_000);
    if (raw) expect(lastResponse(raw).status).toBe(408);
  });

  it("an idle keep-alive connection is closed after the keep-alive timeout (Node adds one second of grace)", async () => {
    const { raw, closedAfterMs } = await exchange((socket) => socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n"));
    expect(raw.startsWith("HTTP/1.1 200")).toBe(true);
    expect(raw.toLowerCase()).toContain("keep-alive");
    expect(closedAfterMs).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
    expect(closedAfterMs).toBeLessThan(KEEP_ALIVE_MS + 1_000 + 500);
  });
});

describe("slow handlers are not cut", () => {
  it("a request received in time is answered however long its handler takes", async () => {
    const { raw } = await exchange((socket) =>
      socket.write("GET /test/slow-handler HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    expect(lastResponse(raw)).toMatchObject({ status: 200, body: { done: true } });
  });
});

describe("requests that never reach a route answer {type, message} JSON", () => {
  it("431 for headers over Node's limit", async () => {
    const { raw } = await exchange((socket) =>
      socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
    );
    const response = lastResponse(raw);
    expect(response.status).toBe(431);
    expect(response.body).toEqual({ type: "invalid_data", message: expect.any(String) });
  });

  it("431 for a request line over Node's limit", async () => {
    const { raw } = await exchange((socket) =>
      socket.write(`GET /store/products?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    expect(lastResponse(raw)).toMatchObject({ status: 431, body: { type: "invalid_data" } });
  });

  it("400 for malformed HTTP (bad request line, bad header, conflicting lengths)", async () => {
    for (const request of [
      "GARBAGE\r\n\r\n",
      "GET /health HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
      "POST /store/carts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "POST /store/carts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ]) {
      const { raw } = await exchange((socket) => socket.write(request));
      const response = lastResponse(raw);
      expect(response.status, request).toBe(400);
      expect(response.body, request).toEqual({ type: "invalid_data", message: expect.any(String) });
    }
  });

  it("414 for a path parameter longer than the router takes", async () => {
    const res = await t.app.inject({ method: "GET", url: `/store/products/${"p".repeat(200)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ type: "invalid_data", message: expect.any(String) });
  });

  it("400 for a path that is not validly percent-encoded", async () => {
    for (const url of ["/store/products/%E0%A4%A", "/%", "/store/%zz"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ type: "invalid_data", message: expect.any(String) });
    }
  });

  it("413 for a body over 1 MB, 415 for a body of a type no parser takes", async () => {
    const big = await t.app.inject({
      method: "POST",
      url: "/store/carts",
      headers: { "content-type": "application/json" },
      payload: `{"metadata":{"a":"${"b".repeat(1_100_000)}"}}`,
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ type: "invalid_data", message: expect.any(String) });
    const text = await t.app.inject({
      method: "POST",
      url: "/store/carts",
      headers: { "content-type": "application/xml" },
      payload: "<cart/>",
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ type: "invalid_data", message: expect.any(String) });
  });
});

describe("configuration", () => {
  it("refuses a headers timeout longer than the request timeout", () => {
    const base = { JWT_SECRET: "x".repeat(32), DATABASE_URL: "postgres://x" };
    expect(() => loadConfig({ ...base, HTTP_HEADERS_TIMEOUT_MS: "40000", HTTP_REQUEST_TIMEOUT_MS: "30000" })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ...base, HTTP_KEEP_ALIVE_TIMEOUT_MS: "0" })).toThrow(ConfigError);
    const defaults = loadConfig(base).http;
    expect(defaults).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 25_000, keepAliveTimeoutMs: 5_000 });
  });
});
