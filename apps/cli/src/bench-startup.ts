// `npm run bench:startup`: how long a restart of `kasse start` on an existing embedded database
// takes, from spawning the process to the first 200 on /health (polled every 10 ms). Runs `--runs`
// restarts (default 5) and prints each and the median. The data dir (`--data-dir`, default
// .kasse/bench-startup) gets a first start of its own when it has no database yet; that one is
// not counted. `--command "node --cpu-prof apps/cli/bin/kasse.js start"` measures another command line.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    "data-dir": { type: "string", default: join(repo, ".kasse", "bench-startup") },
    port: { type: "string", default: process.env.PORT ?? "9190" },
    command: { type: "string", default: `${process.execPath} ${join(repo, "apps/cli/bin/kasse.js")} start` },
    verbose: { type: "boolean", default: false },
  },
});
const dataDir = resolve(values["data-dir"]);
const port = Number(values.port);
const [command, ...args] = values.command.split(" ").filter(Boolean);
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  KASSE_DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
};

function health(): Promise<number> {
  return new Promise((done) => {
    const req = request({ host: "127.0.0.1", port, path: "/health", agent: false }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on("error", () => done(0));
    req.end();
  });
}

/** CPU time (user + system, ms) the process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Spawns the server, resolves with the ms from spawn to the first 200 on /health and the server's own output. */
async function once(): Promise<{ ms: number; cpu: number | undefined; output: string }> {
  if ((await health()) !== 0) throw new Error(`something already listens on port ${port}`);
  const started = performance.now();
  const child = spawn(command!, args, { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let ms: number | undefined;
  let cpu: number | undefined;
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the server exited (${child.exitCode}) before answering:\n${output}`);
      if ((await health()) === 200) {
        ms = performance.now() - started;
        cpu = cpuMs(child.pid);
        break;
      }
      if (performance.now() - started > 300_000) throw new Error(`no answer on /health after 300 s:\n${output}`);
      await sleep(10);
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return { ms, cpu, output };
}

const firstStart = !existsSync(join(dataDir, "data"));
if (firstStart) {
  console.log(`First start in ${dataDir} (migrations, demo store; not counted)`);
  const { ms } = await once();
  console.log(`  first start: ${ms.toFixed(0)} ms`);
}
const runs: number[] = [];
const cpus: number[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  const { ms, cpu, output } = await once();
  runs.push(ms);
  if (cpu !== undefined) cpus.push(cpu);
  const ready = /ready in (\d+) ms/.exec(output)?.[1];
  console.log(
    `  restart ${i + 1}: ${ms.toFixed(0)} ms to /health${cpu !== undefined ? `, ${cpu.toFixed(0)} ms of CPU` : ""}${ready ? ` (server says ready in ${ready} ms)` : ""}`,
  );
  if (values.verbose) console.log(output.trimEnd().replace(/^/gm, "    | "));
  if (/being built in the background/.test(output))
    console.log(
      "  (the admin dashboard was being built meanwhile: run `npm run build:admin` first for a quiet figure)",
    );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `median of ${runs.length} restarts: ${median(runs).toFixed(0)} ms to /health (min ${Math.min(...runs).toFixed(0)}, max ${Math.max(...runs).toFixed(0)})${cpus.length ? `; CPU median ${median(cpus).toFixed(0)} ms` : ""}`,
);
// The machine's load while measuring: on a shared machine wall time says as much about the neighbours as about Kasse.
if (existsSync("/proc/loadavg"))
  console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
