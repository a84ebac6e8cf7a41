import { readdirSync, readFileSync } from "node:fs";

/** A running process: its id and its command line. */
export interface ProcessInfo {
  pid: number;
  argv: string[];
}

/** `pid` and every process under it, parents before their children (Linux: read from /proc). */
function processTree(pid: number): ProcessInfo[] {
  let argv: string[];
  let children: number[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
    );
  } catch {
    return []; // it exited meanwhile
  }
  return [{ pid, argv }, ...children.flatMap(processTree)];
}

/** The node processes under `pid` (itself included) that run `script` (a path ending the argument). */
export function running(pid: number, script: string): ProcessInfo[] {
  return processTree(pid).filter((p) => p.argv.some((arg) => arg.endsWith(script)));
}
