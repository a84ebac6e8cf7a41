import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "@kasse/db/testing";
import { loadConfig } from "./config";
import { handleSignals, startServer, type RunningServer } from "./server";

interface Answer { status: number; body: string }

const request = (url: string, path: string) =>
  new Promise<Answer>((resolve, reject) => {
    http.get(`${url}${path}`, { agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    }).on("error", reject);
  });

let release: () => void = () => {};
let started: Promise<void>;
let onStarted: () => void = () => {};

async function start(env: Record<string, string> = {}, worker?: { closed: boolean }): Promise<RunningServer> {
  const database = await createTestDatabase();
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    LOG_LEVEL: "silent",
    HOST: "127.0.0.1",
    PORT: "0",
    ...env,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  started = new Promise((resolve) => { onStarted = resolve; });
  return startServer({
    config,
    infra: { database, close: () => database.close() },
    logger: false,
    startWorker: worker ? async () => ({ close: async () => { worker.closed = true; } }) : undefined,
    extraRoutes: (app) => {
      app.get("/test/slow", async () => {
        onStarted();
        await new Promise<void>((resolve) => { release = resolve; });
        return { finished: true };
      });
    },
  });
}

let server: RunningServer | undefined;
afterEach(async () => {
  release();
  await server?.close();
  server = undefined;
});

describe("server", () => {
  it("listens on HOST:PORT and serves /health", async () => {
    server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await request(server.url, "/health");
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).status).toBe("ok");
  });

  it("shuts down gracefully: the in-flight request completes, new connections are refused, then the worker and database close", async () => {
    const worker = { closed: false };
    const running = await start({}, worker);
    const inFlight = request(running.url, "/test/slow");
    await started;
    const shutdown = running.close();
    // The listener is closed at once, before the slow request finishes.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(request(running.url, "/health")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(worker.closed).toBe(false);
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ finished: true });
    await shutdown;
    expect(worker.closed).toBe(true);
    await expect(running.app.infra.database.ping(500)).rejects.toBeDefined();
  });

  it("cuts requests still running after SHUTDOWN_TIMEOUT_MS", async () => {
    const running = await start({ SHUTDOWN_TIMEOUT_MS: "200" });
    const inFlight = request(running.url, "/test/slow").catch((error: NodeJS.ErrnoException) => error);
    await started;
    const begun = Date.now();
    await running.close();
    expect(Date.now() - begun).toBeLessThan(5000);
    expect(await inFlight).toMatchObject({ code: "ECONNRESET" });
  });

  it("shuts down on SIGTERM and exits 0", async () => {
    const running = await start();
    const exits: number[] = [];
    const exited = new Promise<void>((resolve) => {
      const detach = handleSignals(running, (code) => {
        exits.push(code);
        detach();
        resolve();
      });
    });
    process.emit("SIGTERM", "SIGTERM");
    await exited;
    expect(exits).toEqual([0]);
    await expect(request(running.url, "/health")).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
