import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SetupError } from "@kasse/db";

/** The file in the data folder that names the process holding it. */
export const LOCK_FILE = "kasse.lock";

/** What the lock file holds: who holds the store, and how to tell that process from a later one with its pid. */
interface Holder {
  pid: number;
  /** The process's start, as the operating system tells it (empty when it cannot): a reused pid has another. */
  started: string;
  /** What the process is, for the refusal: `kasse start on http://localhost:9000`. */
  what: string;
  since: string;
  /** Tells two locks of one process apart (a lock taken, released and taken again). */
  nonce: string;
}

/** An embedded data folder held by this process: released on close, and by the process's exit whatever the path. */
export interface StoreLock {
  /** Says what this process now is (`kasse start on http://…` once it listens). */
  describe(what: string): void;
  release(): void;
}

/** Data folders this process holds: opening one twice in a process would be two writers too. */
const held = new Set<string>();

/**
 * Takes the embedded data folder `dataDir` for this process, or throws a {@link SetupError} whose
 * one line names the process that holds it. PGlite is one process's database: a second writer on
 * the same files loses writes. The lock is `<dataDir>/kasse.lock`, written whole under another
 * name and hard-linked into place (so it never exists half-written, and of two processes only one
 * links it). A lock whose process is gone (killed, crashed, a machine or container restarted) is
 * stale and taken over: its pid is dead, or is this process's own (a container restarted with the
 * same pid), or belongs to a process started at another time (a reused pid). Taking over is
 * serialized by a second lock file, so two processes finding the same stale lock do not both win.
 */
export function lockStore(dataDir: string, what: string): StoreLock {
  const file = join(dataDir, LOCK_FILE);
  if (held.has(file)) throw refusal(dataDir, holderOf(what));
  mkdirSync(dataDir, { recursive: true });
  let mine = holderOf(what);
  for (let attempt = 0; !place(file, mine); attempt++) {
    if (attempt >= 50)
      throw new SetupError(`Cannot lock the embedded store in ${dataDir}: remove ${file} and start again.`);
    const text = readText(file);
    if (text === undefined) continue; // released meanwhile
    const holder = parse(text);
    if (holder && alive(holder)) throw refusal(dataDir, holder);
    takeOver(file, text);
  }
  held.add(file);
  const release = () => {
    if (!held.delete(file)) return;
    process.off("exit", release);
    // Only our own lock: never one a later process took over.
    if (readText(file) === JSON.stringify(mine)) unlinkSilently(file);
  };
  process.on("exit", release);
  return {
    describe(next) {
      if (!held.has(file) || readText(file) !== JSON.stringify(mine)) return;
      mine = { ...mine, what: next };
      const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      writeFileSync(temporary, JSON.stringify(mine));
      renameSync(temporary, file);
    },
    release,
  };
}

/** Creates the lock file with `holder`, whole, unless one exists. */
function place(file: string, holder: Holder): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temporary, JSON.stringify(holder));
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    // A file system without hard links: exclusive creation (a crash before the write leaves an
    // empty lock, which reads as stale).
    try {
      writeFileSync(file, JSON.stringify(holder), { flag: "wx" });
      return true;
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw inner;
    }
  } finally {
    unlinkSilently(temporary);
  }
}

/**
 * Removes the stale lock whose text was `stale`, unless it changed meanwhile (another process took
 * it over and now holds it). Under `<lock>.break`, so two processes never remove each other's
 * new lock; a `.break` left by a process that died in these few lines is removed on the next try.
 */
function takeOver(file: string, stale: string): void {
  const breaker = `${file}.break`;
  if (!place(breaker, holderOf("taking over a stale lock"))) {
    const text = readText(breaker);
    const other = text === undefined ? undefined : parse(text);
    if (other && alive(other)) pause(10);
    else if (text !== undefined) unlinkSilently(breaker);
    return;
  }
  try {
    if (readText(file) === stale) unlinkSilently(file);
  } finally {
    unlinkSilently(breaker);
  }
}

/** This process as a lock names it. */
function holderOf(what: string): Holder {
  return {
    pid: process.pid,
    started: startOf(process.pid),
    what,
    since: new Date().toISOString(),
    nonce: randomBytes(8).toString("hex"),
  };
}

/** Whether the process a lock names still runs: the pid lives, is not this process's, and started when it said. */
function alive(holder: Holder): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has this pid; whether it is the holder, its start tells.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (!holder.started) return true;
  const started = startOf(holder.pid);
  return !started || started === holder.started;
}

/**
 * When process `pid` started, as an opaque text: on Linux its start in clock ticks since boot
 * (`/proc/<pid>/stat`) with the boot's id; elsewhere what `ps` says (to the second). Empty when
 * neither answers (the holder is then judged by its pid alone).
 */
function startOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: the start is field 22.
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    if (ticks) return `${boot}:${ticks}`;
  } catch {
    // Not Linux, or no such process.
  }
  try {
    return execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, LC_ALL: "C" },
    }).trim();
  } catch {
    return "";
  }
}

function refusal(dataDir: string, holder: Holder): SetupError {
  const since = holder.since ? `, since ${holder.since}` : "";
  return new SetupError(
    `The embedded store in ${dataDir} is in use by ${holder.what || "another process"} (pid ${holder.pid}${since}): ` +
      "stop that process first, or give this one another KASSE_DATA_DIR.",
  );
}

function parse(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    const string = (field: unknown) => (typeof field === "string" ? field : "");
    return {
      pid: value.pid as number,
      started: string(value.started),
      what: string(value.what),
      since: string(value.since),
      nonce: string(value.nonce),
    };
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function unlinkSilently(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/** Waits `ms` without yielding: the lock is taken before anything else runs. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
