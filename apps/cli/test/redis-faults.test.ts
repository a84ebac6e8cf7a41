import { createServer, connect, type Server, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { loadBaseConfig } from "@kasse/runtime";
import { spawn, type ChildProcess } from "node:child_process";
import { startKasse, type RunningKasse } from "./kasse-process";

// Redis away when a process starts, back, then away again: the process says so in one line per
// outage (and one when it answers again), keeps serving (`/health` answers, the rate limiter lets
// requests through, `/health/ready` says why it is not ready), and SIGTERM ends it within its
// shutdown timeout. Redis comes and goes through a TCP proxy in front of the real one.

const workerBin = fileURLToPath(new URL("../../worker/bin/kasse-worker.js", import.meta.url));
const SHUTDOWN_TIMEOUT_MS = 2000;
const redis = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

/** A TCP proxy to the real Redis on a port of its own: `up()` lets connections through, `down()` refuses and cuts them. */
function redisProxy() {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  return {
    port: 0,
    async reserve() {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      this.port = (probe.address() as { port: number }).port;
      await new Promise((resolve) => probe.close(resolve));
    },
    up() {
      server = createServer((client) => {
        const upstream = connect(Number(redis.port || 6379), redis.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      return new Promise<void>((resolve) => server!.listen(this.port, "127.0.0.1", resolve));
    },
    down() {
      server?.close();
      server = undefined;
      sockets.forEach((socket) => socket.destroy());
    },
  };
}

/** Everything `child` writes from now on, to wait for a line. */
function watch(child: ChildProcess) {
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return {
    text: () => text,
    async until(pattern: RegExp, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms in:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** An answer from `url` and how long it took. */
async function timed(url: string): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
}

/** SIGTERM, and how long the process took to exit. */
async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<number> {
  const started = Date.now();
  child.kill("SIGTERM");
  await exited;
  return Date.now() - started;
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, "g"))?.length ?? 0;

describe.skipIf(!onPostgres())("Redis unreachable", () => {
  let database: TestDatabase;
  const proxy = redisProxy();
  const running: RunningKasse[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase();
    await proxy.reserve();
    env = {
      DATABASE_URL: database.url!,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      JWT_SECRET: "redis-faults-secret-redis-faults",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    };
  }, 60_000);
  afterAll(async () => {
    running.forEach((k) => k.child.kill("SIGKILL"));
    proxy.down();
    if (database) {
      const direct = new Redis(redis.toString());
      const keys = await direct.keys(`${loadBaseConfig(env).redisPrefix}:*`);
      if (keys.length) await direct.del(...keys);
      await direct.quit();
      await database.close();
    }
  });

  const unreachable = (port: number) =>
    new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is unreachable \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)`);

  it("at start and later: one line per outage and one when it is back; it serves throughout and stops in time", async () => {
    const started = Date.now();
    const k = await startKasse(env);
    running.push(k);
    const output = watch(k.child);
    expect(Date.now() - started).toBeLessThan(30_000);
    // Rate limiting is on (services mode): it lets requests through at once instead of waiting on Redis.
    const health = await timed(`${k.url}/health`);
    expect(health).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(health.ms).toBeLessThan(1000);
    expect((await timed(`${k.url}/store/regions`)).status).toBeLessThan(500);
    const ready = await timed(`${k.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({
      database: "ok",
      redis: expect.stringMatching(
        new RegExp(
          `^not connected to 127\\.0\\.0\\.1:${proxy.port} \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${proxy.port}\\)$`,
        ),
      ),
    });
    // Several reconnection attempts fail meanwhile; none adds a line.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    await proxy.up();
    await output.until(new RegExp(`Redis at 127\\.0\\.0\\.1:${proxy.port} answers again`));
    expect((await timed(`${k.url}/health/ready`)).status).toBe(200);
    // The worker starts working: its maintenance schedules (recovery sweep, event delivery) are
    // put in Redis, under this install's prefix.
    const direct = new Redis(redis.toString());
    try {
      const schedules = `${loadBaseConfig(env).redisPrefix}:workflows:repeat`;
      const deadline = Date.now() + 10_000;
      while ((await direct.zcard(schedules)) < 2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await direct.zcard(schedules)).toBeGreaterThanOrEqual(2);
    } finally {
      await direct.quit();
    }

    proxy.down();
    await output.until(unreachable(proxy.port));
    const later = await timed(`${k.url}/health`);
    expect(later.status).toBe(200);
    expect(later.ms).toBeLessThan(1000);
    expect((await timed(`${k.url}/health/ready`)).status).toBe(503);

    expect(await terminate(k.child, k.exited)).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1500);
    const { code, stdout, stderr } = await k.exited;
    const all = stdout + stderr;
    expect(code, all).toBe(0);
    expect(count(all, unreachable(proxy.port))).toBe(2);
    expect(count(all, /answers again/)).toBe(1);
    expect(count(all, /worker waiting for Redis at 127\.0\.0\.1:\d+: it takes workflow jobs/)).toBe(1);
    expect(all).not.toMatch(/Unhandled error event|workflow worker error|\n\s+at /);
  }, 120_000);

  it("with --no-worker: requests answer at once and SIGTERM ends it within the shutdown timeout", async () => {
    proxy.down();
    const k = await startKasse(env, ["--no-worker"]);
    running.push(k);
    for (const path of ["/health", "/store/regions", "/admin/queues/api/queues"]) {
      const answer = await timed(`${k.url}${path}`);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.ms, path).toBeLessThan(1000);
    }
    expect(await terminate(k.child, k.exited)).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1500);
    const { code, stdout, stderr } = await k.exited;
    expect(code, stdout + stderr).toBe(0);
    expect(count(stdout + stderr, unreachable(proxy.port))).toBe(1);
  }, 60_000);

  it("the dedicated worker says what it waits for, and SIGTERM ends it within the shutdown timeout", async () => {
    proxy.down();
    const child = spawn(process.execPath, [workerBin], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const output = watch(child);
    await output.until(/worker waiting for Redis at 127\.0\.0\.1:\d+/, 20_000);
    expect(await terminate(child, exited)).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1500);
    expect(await exited, output.text()).toBe(0);
    expect(count(output.text(), unreachable(proxy.port))).toBe(1);
    expect(output.text()).not.toMatch(/Unhandled error event|workflow worker error|\n\s+at /);
  }, 60_000);
});
