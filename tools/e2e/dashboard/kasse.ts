import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../storefront";

const bin = resolve(import.meta.dirname, "../../../apps/cli/bin/kasse.js");

export interface RunningKasse {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The demo store's publishable API key, as the first start printed it. */
  publishableKey: string;
  admin: { email: string; password: string };
  /** Stops Kasse (SIGTERM, as an operator would) and removes its data dir. */
  stop(): Promise<void>;
}

export interface StartKasseOptions {
  admin: { email: string; password: string };
  /** MEDUSA_BASE_PATH; unset: Kasse's default. */
  backendPath?: string;
  /** Kasse's stdout and stderr go here. */
  logFile: string;
}

/**
 * `kasse start` in embedded mode, as a new user runs it: a fresh temporary data dir (migrated and
 * seeded with the demo store and the admin on this first start), on a free port of 127.0.0.1 that
 * is also its public URL (uploaded files are served, and linked, there).
 */
export async function startKasse(options: StartKasseOptions): Promise<RunningKasse> {
  const dataDir = mkdtempSync(join(tmpdir(), "kasse-e2e-dashboard-"));
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    KASSE_DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    KASSE_ADMIN_EMAIL: options.admin.email,
    KASSE_ADMIN_PASSWORD: options.admin.password,
    ...(options.backendPath ? { MEDUSA_BASE_PATH: options.backendPath } : {}),
  };
  const child = spawn(process.execPath, [bin, "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const log = createWriteStream(options.logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const stop = async () => {
    await exited(child, "SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const output = await waitFor(child, /Publishable API key \(x-publishable-api-key\): (\S+)/, 120_000);
    const origin = /listening on (http:\/\/\S+) /.exec(output)![1]!;
    const publishableKey = /Publishable API key \(x-publishable-api-key\): (\S+)/.exec(output)![1]!;
    return { origin, publishableKey, admin: options.admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitFor(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => reject(new Error(`kasse start did not print ${pattern} within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`kasse start exited (${code}) before it was ready:\n${output}`));
    });
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}
