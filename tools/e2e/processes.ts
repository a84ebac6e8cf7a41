import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";

/** A child process started by the suite: its output goes to a log file and is searchable while it runs. */
export interface Service {
  name: string;
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in the output; rejects when the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** The last lines of output, for failure messages. */
  tail(lines?: number): string;
  stop(): Promise<void>;
}

const running = new Set<Service>();

/**
 * Starts a command in its own process group (so that stopping it also stops whatever it spawned,
 * e.g. next's workers), logging stdout and stderr to `logFile`.
 */
export function startService(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Service {
  const log = createWriteStream(options.logFile, { flags: "a" });
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    output += chunk.toString();
    // Only the tail is searched and reported; keep memory bounded for chatty processes.
    if (output.length > 200_000) output = output.slice(-100_000);
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", (error) => {
      output += `\n${String(error)}\n`;
      resolve(null);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : null)));
  }).then((code) => {
    running.delete(service);
    for (const listener of listeners) listener();
    log.end();
    return code;
  });
  let ended = false;
  void exited.then(() => (ended = true));

  const tail = (lines = 30) => output.trimEnd().split("\n").slice(-lines).join("\n");
  const service: Service = {
    name,
    child,
    exited,
    tail,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) return done(() => resolve(match));
          if (ended)
            done(() => reject(new Error(`${name} exited before printing ${pattern}; its last output:\n${tail()}`)));
        };
        const timer = setTimeout(
          () =>
            done(() =>
              reject(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms; its last output:\n${tail()}`)),
            ),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (ended || child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(service);
  return service;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs a command to completion (output to `logFile`); rejects with the output's tail when it fails. */
export async function runCommand(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Promise<void> {
  const service = startService(name, command, args, options);
  const code = await service.exited;
  if (code !== 0)
    throw new Error(`${name} failed (exit ${code}); see ${options.logFile}. Last output:\n${service.tail()}`);
}

/** Stops every service still running, the most recently started first. */
export async function stopAll(): Promise<void> {
  for (const service of [...running].reverse()) await service.stop();
}

/** Stops the services when the suite is interrupted, so no server outlives it. */
export function stopOnSignals(): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the suite's processes`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}
