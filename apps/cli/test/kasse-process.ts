import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/kasse.js", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));

/** How a `kasse` child process ended, with everything it printed. */
export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `kasse` in a child process with a clean environment (no DATABASE_URL unless given);
 * `onOutput` sees the stdout so far after each chunk (to act once the server listens).
 */
export function kasse(
  args: string[],
  env: Record<string, string> = {},
  onOutput?: (stdout: string, child: ChildProcess) => void,
): Promise<Exit> {
  return node([bin, ...args], env, onOutput);
}

/** Runs `node <args>` from the repository root with only PATH, LOG_LEVEL=warn and `env` set. */
export function node(
  args: string[],
  env: Record<string, string> = {},
  onOutput?: (stdout: string, child: ChildProcess) => void,
): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput?.(stdout, child);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A `kasse start` child process that is listening. */
export interface RunningKasse {
  url: string;
  /** What it printed up to its ready line (the address and the notes printed with it). */
  started: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<Exit>;
}

/** Starts `kasse start` (PORT 0 on 127.0.0.1) and resolves once it prints its address; rejects if it exits first. */
export function startKasse(env: Record<string, string>, args: string[] = []): Promise<RunningKasse> {
  return new Promise((resolve, reject) => {
    let listening = false;
    const exited = kasse(["start", ...args], { PORT: "0", HOST: "127.0.0.1", ...env }, (stdout, running) => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (!url || listening) return;
      listening = true;
      resolve({
        url,
        started: stdout,
        child: running,
        exited,
        stop: () => {
          running.kill("SIGTERM");
          return exited;
        },
      });
    });
    exited.then((exit) => {
      if (!listening)
        reject(new Error(`kasse start exited ${exit.code} before listening:\n${exit.stderr}${exit.stdout}`));
    }, reject);
  });
}
