import { spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import {
  ADMIN_BASE,
  buildInputs,
  bundleScript,
  distDir,
  scratchDir,
  type AdminBuildOptions,
  type BuildInputs,
} from "./inputs";

/** The file a finished build holds beside its index.html: the inputs it was built from. */
const STAMP = "kasse-build.json";
/** Finished builds kept besides the current one (older inputs, e.g. another backend path). */
const KEEP = 3;

export interface AdminBuildState {
  /** The folder the build for these inputs lives (or will live) in: `apps/admin/dist/<hash>`. */
  dir: string;
  inputs: BuildInputs;
  /** A complete build for these inputs is there. */
  ready: boolean;
}

/** Where the build for `options` is, and whether it is complete. Cheap: reads the lockfile, builds nothing. */
export function adminBuildState(options: AdminBuildOptions): AdminBuildState {
  const inputs = buildInputs(options);
  const dir = join(distDir, inputs.hash);
  return { dir, inputs, ready: existsSync(join(dir, STAMP)) && existsSync(join(dir, "index.html")) };
}

export interface BuildResult {
  dir: string;
  /** False when a complete build was already there. */
  built: boolean;
  ms: number;
}

/**
 * Builds the dashboard for `options` unless a build for the same inputs exists. The bundler runs
 * in a child process (about 20 s of CPU), writes to a scratch folder that is renamed into place
 * when complete (a half-written build is never served), and one process builds at a time: a
 * concurrent caller (another Kasse process on the same checkout) waits for that build instead.
 * Rejects with the end of the bundler's log when it fails.
 */
export async function buildAdmin(options: AdminBuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const state = adminBuildState(options);
  if (state.ready) return { dir: state.dir, built: false, ms: 0 };
  mkdirSync(distDir, { recursive: true });
  const lock = join(distDir, `${state.inputs.hash}.lock`);
  while (!takeLock(lock)) {
    await sleep(500);
    if (adminBuildState(options).ready) return { dir: state.dir, built: false, ms: Date.now() - started };
  }
  // Per process: a lock taken over from a dead builder may, rarely, be taken by two processes at once.
  const work = join(scratchDir, `${state.inputs.hash}-${process.pid}`);
  // Kasse exiting mid-build (Ctrl-C, SIGTERM) leaves no lock or scratch folder behind.
  const cleanUp = () => {
    rmSync(work, { recursive: true, force: true });
    rmSync(lock, { force: true });
  };
  process.once("exit", cleanUp);
  try {
    if (adminBuildState(options).ready) return { dir: state.dir, built: false, ms: Date.now() - started };
    mkdirSync(work, { recursive: true });
    const out = join(work, "out");
    const log = join(distDir, `${state.inputs.hash}.log`);
    await runBundler(work, out, state.inputs, log);
    writeFileSync(
      join(out, STAMP),
      `${JSON.stringify({ ...state.inputs, built_at: new Date().toISOString(), ms: Date.now() - started }, null, 2)}\n`,
    );
    if (!adminBuildState(options).ready) {
      rmSync(state.dir, { recursive: true, force: true });
      renameSync(out, state.dir);
    }
    rmSync(log, { force: true });
    prune(state.inputs.hash);
    return { dir: state.dir, built: true, ms: Date.now() - started };
  } finally {
    process.off("exit", cleanUp);
    cleanUp();
  }
}

function runBundler(cwd: string, out: string, inputs: BuildInputs, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const log = openSync(logFile, "w");
    const child = spawn(process.execPath, [bundleScript, out, ADMIN_BASE, inputs.backendPath], {
      cwd,
      env: { ...process.env, ADMIN_AUTH_TYPE: inputs.authType, NODE_ENV: "production" },
      stdio: ["ignore", log, log],
    });
    // Kasse stopping (Ctrl-C, SIGTERM) must not leave a bundler running on its own (first, before the scratch folder goes).
    const stop = () => child.kill("SIGTERM");
    process.prependOnceListener("exit", stop);
    child.on("error", (error) => {
      process.off("exit", stop);
      closeSync(log);
      reject(error);
    });
    child.on("close", (code, signal) => {
      process.off("exit", stop);
      closeSync(log);
      if (code === 0) return resolve();
      const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-15).join("\n");
      reject(new Error(`Building the admin dashboard failed (${signal ?? `exit ${code}`}); log: ${logFile}\n${tail}`));
    });
  });
}

/** Creates the lock file with this process's id; a lock left by a process that died is taken over. */
function takeLock(file: string): boolean {
  try {
    const fd = openSync(file, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = Number(readFileSync(file, "utf8"));
    if (owner && owner !== process.pid && alive(owner)) return false;
    rmSync(file, { force: true });
    return takeLock(file);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Keeps the current build and the KEEP most recent others; removes older builds and dead builders' scratch folders. */
function prune(current: string): void {
  for (const entry of existsSync(scratchDir) ? readdirSync(scratchDir) : []) {
    const pid = /^\w+-(\d+)$/.exec(entry)?.[1];
    if (pid && Number(pid) !== process.pid && !alive(Number(pid)))
      rmSync(join(scratchDir, entry), { recursive: true, force: true });
  }
  const entries = readdirSync(distDir, { withFileTypes: true });
  const builds = entries
    .filter((entry) => entry.isDirectory() && entry.name !== current && existsSync(join(distDir, entry.name, STAMP)))
    .map((entry) => ({ dir: join(distDir, entry.name), at: statSync(join(distDir, entry.name, STAMP)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of builds.slice(KEEP)) rmSync(old.dir, { recursive: true, force: true });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
