import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "@kasse/db/testing";
import { loadConfig, createWorkflowRuntime, modulesOptions } from "@kasse/runtime";
import { handleSignals, listenGraceMs, startServer, type RunningServer, type Stoppable } from "./server";

interface Answer {
  status: number;
  body: string;
}

const request = (url: string, path: string) =>
  new Promise<Answer>((resolve, reject) => {
    http
      .get(`${url}${path}`, { agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      })
      .on("error", reject);
  });

let release: () => void = () => {};
let lateQuery: Promise<string> | undefined;
let started: Promise<void>;
let onStarted: () => void = () => {};

async function start(env: Record<string, string> = {}, worker?: Stoppable): Promise<RunningServer> {
  const database = await createTestDatabase();
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    LOG_LEVEL: "silent",
    HOST: "127.0.0.1",
    PORT: "0",
    ...env,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  started = new Promise((resolve) => {
    onStarted = resolve;
  });
  return startServer({
    config,
    infra: {
      database,
      ...createWorkflowRuntime(database, { modules: modulesOptions(config) }),
      close: () => database.close(),
    },
    logger: false,
    startWorker: worker ? async () => worker : undefined,
    extraRoutes: (app) => {
      app.get("/test/slow", async () => {
        onStarted();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { finished: true };
      });
      app.get("/test/slow-then-query", async () => {
        onStarted();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        lateQuery = app.modules.salesChannel.list({}, { limit: 1, offset: 0 }).then(
          () => "ok",
          (error: Error) => error.message,
        );
        await lateQuery;
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

  it("shuts down in order: the listener and the worker stop taking work at once, the in-flight request completes, then the database closes", async () => {
    let closing = false;
    let finishJobs!: () => void;
    const jobsDone = new Promise<void>((resolve) => (finishJobs = resolve));
    const running = await start({}, { close: () => ((closing = true), jobsDone) });
    const inFlight = request(running.url, "/test/slow");
    await started;
    const shutdown = running.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // At once new requests are refused with 503 and the worker was told to stop; after the grace
    // new connections are refused, all before the slow request finishes.
    expect(await request(running.url, "/health")).toMatchObject({ status: 503 });
    await new Promise((resolve) => setTimeout(resolve, listenGraceMs(running.app.config.shutdownTimeoutMs)));
    await expect(request(running.url, "/health")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(closing).toBe(true);
    await expect(running.app.infra.database.ping(500)).resolves.toBeUndefined();
    release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ finished: true });
    // The database stays open while the worker finishes its jobs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(running.app.infra.database.ping(500)).resolves.toBeUndefined();
    finishJobs();
    await shutdown;
    await expect(running.app.infra.database.ping(500)).rejects.toBeDefined();
  });

  it("answers a request that arrives while shutting down with 503 {type, message}", async () => {
    const running = await start();
    const inFlight = request(running.url, "/test/slow");
    await started;
    // A client whose request is half sent when the shutdown begins.
    const socket = net.connect(Number(new URL(running.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const shutdown = running.close();
    let raw = "";
    socket.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    const ended = new Promise((resolve) => socket.once("close", resolve));
    socket.write("\r\n");
    await ended;
    expect(raw).toMatch(/^HTTP\/1\.1 503 /);
    expect(raw).toMatch(/connection: close/i);
    expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))).toEqual({
      type: "unavailable",
      message: "This server is shutting down; retry the request",
    });
    release();
    expect((await inFlight).status).toBe(200);
    await shutdown;
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

  it("keeps the database open for a handler cut off from its client at the deadline until it returns", async () => {
    const running = await start({ SHUTDOWN_TIMEOUT_MS: "200" });
    const inFlight = request(running.url, "/test/slow-then-query").catch((error: NodeJS.ErrnoException) => error);
    await started;
    const closed = running.close();
    expect(await inFlight).toMatchObject({ code: "ECONNRESET" });
    // The client is gone; the handler goes on to query, as a handler reading its answer would.
    release();
    await closed;
    expect(await lateQuery).toBe("ok");
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
