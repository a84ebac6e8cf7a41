import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { loadBaseConfig } from "@kasse/runtime";
import { SERVER_NODE_FLAGS, serverFlagsMissing } from "@kasse/runtime/node-flags";
import { node } from "./kasse-process";
import { running, type ProcessInfo } from "./processes";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const KASSE = "apps/cli/bin/kasse.js";
const WORKER = "apps/worker/bin/kasse-worker.js";

const withFlags = (p: ProcessInfo) => SERVER_NODE_FLAGS.every((flag) => p.argv.includes(flag));

describe("the server processes' heap options", () => {
  it("are added to a services-mode server started without them, before its own options, and to nothing else", () => {
    const services = { DATABASE_URL: "postgres://db.example/kasse" };
    expect(serverFlagsMissing(true, [], services)).toEqual([...SERVER_NODE_FLAGS]);
    // An option of its own comes after Kasse's, so it wins.
    expect(serverFlagsMissing(true, ["--max-old-space-size=2048"], services)).toEqual([
      ...SERVER_NODE_FLAGS,
      "--max-old-space-size=2048",
    ]);
    expect(serverFlagsMissing(true, [...SERVER_NODE_FLAGS], services)).toBeNull();
    const inNodeOptions = { ...services, NODE_OPTIONS: "--max_old_space_size=1024 --max-semi-space-size 8" };
    expect(serverFlagsMissing(true, [], inNodeOptions)).toBeNull();
    // Embedded (no DATABASE_URL): a start costs 5-15% more CPU with them, and PGlite's memory is not V8's.
    expect(serverFlagsMissing(true, [], {})).toBeNull();
    // Commands that serve nothing (migrate, check, seed) run as they were started.
    expect(serverFlagsMissing(false, [], services)).toBeNull();
  });

  it("bound the heap as intended, and the npm scripts pass them as the launchers would add them", async () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // In services mode (DATABASE_URL set) only: the shell's ${VAR:+…} expands to nothing without it.
    const flags = SERVER_NODE_FLAGS.join(" ");
    expect(scripts.start).toBe(`node \${DATABASE_URL:+${flags}} ${KASSE} start`);
    expect(scripts.kasse).toBe(`node \${DATABASE_URL:+${flags}} ${KASSE}`);
    expect(scripts.worker).toBe(`node ${flags} ${WORKER}`);
    const limit = await node([
      ...SERVER_NODE_FLAGS,
      "-e",
      "console.log(require('node:v8').getHeapStatistics().heap_size_limit)",
    ]);
    // The old generation's 512 MB and the young generation's three 4 MB semi-spaces.
    expect(Number(limit.stdout) / 2 ** 20).toBeGreaterThanOrEqual(512);
    expect(Number(limit.stdout) / 2 ** 20).toBeLessThan(600);
  });
});

/** Every process {@link launch} started: a test that times out while they start leaves none behind. */
const launched = new Set<number>();

/** A command started the README's way, once it says it is ready (`ready` matched `times` times). */
async function launch(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  times = 1,
): Promise<{ pid: number; exited: Promise<number | null>; stop(script: string): Promise<number | null> }> {
  const child = spawn(command, args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ADMIN_UI: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  launched.add(child.pid!);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  void exited.then(() => launched.delete(child.pid!));
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if ((output.match(new RegExp(ready, "g")) ?? []).length >= times) resolve();
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    void exited.then(() => reject(new Error(`${command} ${args.join(" ")} exited before it was ready:\n${output}`)));
  });
  return {
    pid: child.pid!,
    exited,
    // Kasse's own process is told, as a supervisor would: npm's shell would not pass a signal on.
    stop: (script) => {
      const [launcher] = running(child.pid!, script);
      if (launcher) process.kill(launcher.pid, "SIGTERM");
      return exited;
    },
  };
}

describe.skipIf(!onPostgres() || !process.env.REDIS_URL)("every way the README starts Kasse", () => {
  let database: TestDatabase | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "kasse-heap-"));
  // A Redis database of its own: these workers' queue meets no other test's.
  const redisUrl = `${process.env.REDIS_URL}/${randomInt(1, 16)}`;
  afterAll(async () => {
    // What a timed-out start left running, with the servers its launchers started.
    for (const pid of launched)
      for (const p of [...running(pid, KASSE), ...running(pid, WORKER)])
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // it ended meanwhile
        }
    if (database) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${loadBaseConfig({ DATABASE_URL: database.url! }).redisPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await database.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs every services-mode server with the heap options, through the launcher, and the embedded one without", async () => {
    database = await createTestDatabase();
    const services = {
      DATABASE_URL: database.url!,
      REDIS_URL: redisUrl,
      JWT_SECRET: "heap-options-test-secret-0123",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
    };
    const listening = /listening on http/;
    const [npmStart, direct, cluster, worker, embedded] = await Promise.all([
      launch("npm", ["start"], services, listening),
      launch(process.execPath, [KASSE, "start", "--no-worker"], services, listening),
      launch("npm", ["start", "--", "--processes", "2", "--no-worker"], services, listening, 2),
      launch(process.execPath, [WORKER], services, /"msg":"worker started"/),
      launch("npm", ["start"], { KASSE_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" }, listening),
    ]);
    try {
      // npm's scripts pass them: one process, the server.
      expect(running(npmStart.pid, KASSE).map(withFlags)).toEqual([true]);
      // Started without them: the launcher, and the server it runs again with them.
      expect(running(direct.pid, KASSE).map(withFlags)).toEqual([false, true]);
      expect(running(worker.pid, WORKER).map(withFlags)).toEqual([false, true]);
      // The primary passes them on to the processes it forks.
      expect(running(cluster.pid, KASSE).map(withFlags)).toEqual([true, true, true]);
      // Embedded: as started, without them (they would cost its start 5-15% more CPU).
      expect(running(embedded.pid, KASSE).map(withFlags)).toEqual([false]);
      // Ctrl-C reaches the launcher and the server at once, and the launcher passes it on: one signal
      // to the server, which shuts down gracefully (a second one later would stop it at once, exit 1).
      for (const p of running(direct.pid, KASSE)) process.kill(p.pid, "SIGINT");
      expect(await direct.exited).toBe(0);
    } finally {
      await Promise.all([
        npmStart.stop(KASSE),
        direct.stop(KASSE),
        cluster.stop(KASSE),
        worker.stop(WORKER),
        embedded.stop(KASSE),
      ]);
    }
  }, 60_000);
});
