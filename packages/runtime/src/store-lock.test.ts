import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SetupError } from "@kasse/db";
import { LOCK_FILE, lockStore } from "./store-lock";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill("SIGKILL")));
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "kasse-lock-"));
  dirs.push(dir);
  return dir;
}

const lockOf = (dir: string) => JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")) as Record<string, unknown>;

/** A live process other than this one (it sleeps until killed). */
function otherProcess(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  children.push(child);
  return child;
}

/** A process of its own running `script` with `lockStore` in scope (stdin and stdout piped). */
function withLockStore(script: string): ChildProcess {
  const module = JSON.stringify(new URL("./store-lock.ts", import.meta.url).href);
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "-e", `const { lockStore } = await import(${module});\n${script}`],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  children.push(child);
  return child;
}

/** The refusal `lockStore` throws on `dir`, or undefined when it took the lock (released again). */
function refusal(dir: string): string | undefined {
  try {
    lockStore(dir, "kasse migrate").release();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(SetupError);
    return (error as Error).message;
  }
}

describe("lockStore", () => {
  it("writes who holds the folder, says it to a second taker in one line, and removes the lock on release", () => {
    const dir = folder();
    const lock = lockStore(dir, "kasse start");
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, what: "kasse start" });
    lock.describe("kasse start on http://localhost:9000");
    expect(lockOf(dir)).toMatchObject({ what: "kasse start on http://localhost:9000" });
    // A second opening in this process would be a second writer too.
    const message = refusal(dir);
    expect(message).toMatch(
      new RegExp(`^The embedded store in ${dir} is in use by .* \\(pid ${process.pid}, since .*\\): stop that process`),
    );
    expect(message).not.toContain("\n");
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockStore(dir, "kasse start").release();
  });

  it("refuses while another live process holds it, naming that process; takes it once that process is killed", async () => {
    const dir = folder();
    const holder = withLockStore(
      `lockStore(${JSON.stringify(dir)}, "kasse start on http://localhost:9000");
       console.log("LOCKED");
       setInterval(() => {}, 1000);`,
    );
    await new Promise((resolve) => holder.stdout!.once("data", resolve));
    const { since } = lockOf(dir);
    expect(refusal(dir)).toBe(
      `The embedded store in ${dir} is in use by kasse start on http://localhost:9000 (pid ${holder.pid}, since ${since}): stop that process first, or give this one another KASSE_DATA_DIR.`,
    );
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(refusal(dir)).toBeUndefined();
  });

  it("takes over a stale lock: a dead pid, its own pid (a restarted container), a reused pid, a garbled file", async () => {
    const dir = folder();
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => dead.once("exit", resolve));
    const reused = otherProcess();
    await new Promise((resolve) => reused.once("spawn", resolve));
    const stale = [
      { pid: dead.pid, started: "", what: "kasse start", since: "", nonce: "a" },
      { pid: process.pid, started: "", what: "kasse start", since: "", nonce: "b" },
      // A live process whose start differs from the one recorded: the pid was given to another program.
      { pid: reused.pid, started: "Thu Jan  1 00:00:00 1970", what: "kasse start", since: "", nonce: "c" },
    ];
    for (const holder of stale) {
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify(holder));
      expect(refusal(dir), JSON.stringify(holder)).toBeUndefined();
    }
    writeFileSync(join(dir, LOCK_FILE), "");
    expect(refusal(dir)).toBeUndefined();
    // A take-over interrupted by a crash left its `.break` file behind: it does not block either.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(stale[0]));
    writeFileSync(join(dir, `${LOCK_FILE}.break`), JSON.stringify(stale[0]));
    expect(refusal(dir)).toBeUndefined();
    expect(existsSync(join(dir, `${LOCK_FILE}.break`))).toBe(false);
  });

  it("lets exactly one of several processes take over the same stale lock at once", async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 999_999_999, started: "", what: "gone", since: "" }));
    // Each taker loads, says READY, and tries when told GO: the attempts start within a millisecond or so.
    const takers = Array.from({ length: 3 }, () => {
      const child = withLockStore(
        `console.log("READY");
         process.stdin.once("data", () => {
           try { lockStore(${JSON.stringify(dir)}, "taker"); console.log("LOCKED"); }
           catch (error) { console.log(/in use by taker/.test(error.message) ? "REFUSED" : error.message); }
         });`,
      );
      const lines: string[] = [];
      const next = () =>
        new Promise<string>((resolve) => {
          if (lines.length) return resolve(lines.shift()!);
          child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
        });
      return { child, next };
    });
    expect(await Promise.all(takers.map((taker) => taker.next()))).toEqual(["READY", "READY", "READY"]);
    for (const { child } of takers) child.stdin!.write("GO\n");
    const outcomes = await Promise.all(takers.map((taker) => taker.next()));
    expect(outcomes.sort()).toEqual(["LOCKED", "REFUSED", "REFUSED"]);
  });

  it("releases only its own lock, never one a later process took over", () => {
    const dir = folder();
    const lock = lockStore(dir, "kasse start");
    const later = { pid: 1, started: "", what: "kasse start", since: "", nonce: "later" };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(later));
    lock.release();
    expect(lockOf(dir)).toEqual(later);
  });
});
