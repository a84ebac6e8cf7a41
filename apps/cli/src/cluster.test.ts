import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";

const bin = fileURLToPath(new URL("../bin/kasse.js", import.meta.url));

/** Runs `kasse` with `env` (and no inherited database or Redis settings). */
function kasse(args: string[], env: Record<string, string>): ChildProcess {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env;
  return spawn(process.execPath, [bin, ...args], {
    env: { ...rest, LOG_LEVEL: "warn", ADMIN_UI: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Everything the process wrote, and its exit code, once it exits. */
function exited(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

describe("kasse start --processes", () => {
  it("refuses more than one process on the embedded database, saying why", async () => {
    const { code, output } = await exited(
      kasse(["start", "--processes", "2"], { JWT_SECRET: "cluster-test-secret-0123456789" }),
    );
    expect(code).toBe(2);
    expect(output).toContain("needs services mode (DATABASE_URL and REDIS_URL)");
  });

  it("refuses a process count that is not a whole number", async () => {
    const { code, output } = await exited(kasse(["start", "--processes", "two"], {}));
    expect(code).toBe(2);
    expect(output).toContain("--processes takes a whole number");
  });
});

describe.skipIf(!onPostgres() || !process.env.REDIS_URL)("kasse start --processes on PostgreSQL and Redis", () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.close());

  it("serves one port from N processes, replaces one that dies, and stops them all on SIGTERM", async () => {
    database = await createTestDatabase();
    const child = kasse(["start", "--processes", "2", "--no-worker"], {
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      JWT_SECRET: "cluster-test-secret-0123456789",
      PORT: "0",
      HOST: "127.0.0.1",
    });
    const done = exited(child);
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const listening = () => [...output.matchAll(/listening on (http:\/\/[^ ]+)/g)].map((m) => m[1]!);
    while (listening().length < 2) {
      if (child.exitCode !== null) throw new Error(`kasse start exited: ${(await done).output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Port 0: the cluster picks one port for all its processes.
    const [url, other] = listening();
    expect(other).toBe(url);
    const under = (pid: string | number) =>
      execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
    // Started without the heap options, the launcher runs the primary again with them (node-flags.ts).
    const [primary] = under(child.pid!);
    const children = () => under(primary!);
    const first = children();
    expect(first).toHaveLength(2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${url}/health`).then((res) => res.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);

    process.kill(Number(first[0]), "SIGKILL");
    while (listening().length < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(children()).toHaveLength(2);
    expect((await fetch(`${url}/health`)).status).toBe(200);

    child.kill("SIGTERM");
    const { code } = await done;
    expect(code).toBe(0);
  }, 60_000);
});
