import { spawn } from "node:child_process";

/**
 * V8 heap options of every services-mode server process (`kasse start` and the worker with
 * DATABASE_URL set), however it is started: npm's scripts (`npm start`, `npm run kasse`, `npm run
 * worker`) pass them in services mode, and the launchers relaunch a server started otherwise
 * ({@link relaunchWithServerFlags}). V8 sizes the old generation by how much the heap may
 * grow: under the default limit (gigabytes) it lets the heap grow to about four times what is
 * live after each collection (under the bench: 56 MiB live, 237 MiB of heap pages), and at 512 MB
 * to about 1.4 times; 512 MB is still nine times the live heap. Young-generation semi-spaces of
 * 4 MB instead of 16 MB keep what dies young small too. Later options win: `node <these>
 * --max-old-space-size=2048 …` raises the limit again. An embedded start goes without: they cost
 * it 5-15% more CPU (more collections while the modules load), and there PGlite's memory is not V8's heap.
 */
export const SERVER_NODE_FLAGS = ["--max-old-space-size=512", "--max-semi-space-size=4"] as const;

/** The option names of {@link SERVER_NODE_FLAGS} (`--max-old-space-size`): node also takes them with underscores. */
const flagNames = SERVER_NODE_FLAGS.map((flag) => flag.slice(0, flag.indexOf("=")));

/**
 * The node options a process should be started again with, or null when it runs as it should: a
 * services-mode server (`server`: `kasse start`, the worker; DATABASE_URL set) started without
 * {@link SERVER_NODE_FLAGS} in its options or NODE_OPTIONS gets them, before its own options (so
 * an option it was given, such as a larger `--max-old-space-size`, still wins).
 */
export function serverFlagsMissing(
  server: boolean,
  execArgv: readonly string[],
  env: Record<string, string | undefined>,
): string[] | null {
  if (!server || !env.DATABASE_URL) return null;
  const given = [...execArgv, ...(env.NODE_OPTIONS?.split(/\s+/) ?? [])].map((option) =>
    option.split("=")[0]!.replaceAll("_", "-"),
  );
  if (flagNames.every((name) => given.includes(name))) return null;
  return [...SERVER_NODE_FLAGS, ...execArgv];
}

/**
 * How soon after a stop signal the same signal again is the same one: a relaunched server gets
 * the signal its process group got (Ctrl-C in a terminal, a supervisor signalling the group) and
 * again from its launcher, a moment apart. A second signal later than this stops it at once.
 */
export const SIGNAL_ECHO_MS = 1_000;

/**
 * What the launchers (`apps/cli/bin/kasse.js`, `apps/worker/bin/kasse-worker.js`) call first:
 * when this process is a server missing {@link SERVER_NODE_FLAGS} (started by `node
 * apps/cli/bin/kasse.js start`, `npx kasse start`, a unit file), runs it again as a child with them
 * (same arguments, environment and terminal) and returns true; this process then only waits for it
 * (about 45 MiB of RSS, 7 of them its own: the rest is node's binary, shared with the child), passes
 * on the signals it gets, and exits as it exits. Otherwise returns false at once.
 * A signal its process group also delivered to the child (Ctrl-C) reaches the child twice within
 * a moment: the servers count that as one ({@link SIGNAL_ECHO_MS}).
 */
export function relaunchWithServerFlags(server: boolean): boolean {
  const options = serverFlagsMissing(server, process.execArgv, process.env);
  if (!options) return false;
  const child = spawn(process.execPath, [...options, ...process.argv.slice(1)], { stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
  for (const signal of signals) process.on(signal, forward);
  child.on("error", (error) => {
    console.error(`kasse: cannot start node again with ${SERVER_NODE_FLAGS.join(" ")}: ${error.message}`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    for (const name of signals) process.off(name, forward);
    // Killed by a signal: this process ends the same way, so whoever started it sees what happened.
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
  return true;
}
