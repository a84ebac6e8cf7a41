import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { COUNTRY, PUBLISHABLE_KEY, type E2eConfig } from "./config";
import { runCommand, startService, type Service } from "./processes";

/** What the cached install and build were made from; a change in any part redoes that stage. */
interface CacheStamp {
  installKey: string;
  buildKey?: string;
}

const STAMP = ".kasse-e2e.json";
/** Inlined at build time but used only for page metadata: fixed, so that it never invalidates the build. */
const BASE_URL = "http://localhost:8000";

const sha256 = (...parts: Array<string | Buffer>) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
};

/** Every file of a tree (sorted, relative), skipping generated folders. */
function filesOf(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !["node_modules", ".next"].includes(entry.name))
    .flatMap((entry) =>
      entry.isDirectory() ? filesOf(join(dir, entry.name), base) : [relative(base, join(dir, entry.name))],
    )
    .sort();
}

/** The storefront's source as published: app directory, pinned lock and the commit it came from. */
export function storefrontSource(config: E2eConfig): { app: string; lock: string; commit: string } {
  const app = join(config.storefrontSource, "apps", "storefront");
  const lock = join(config.storefrontSource, "npm-package-lock.json");
  const sourceMd = join(config.storefrontSource, "SOURCE.md");
  if (!existsSync(app) || !existsSync(lock) || !existsSync(sourceMd)) {
    throw new Error(
      `The storefront source is not at ${config.storefrontSource} (expected SOURCE.md, apps/storefront, npm-package-lock.json); set KASSE_E2E_STOREFRONT_SRC`,
    );
  }
  const commit = /\b[0-9a-f]{40}\b/.exec(readFileSync(sourceMd, "utf8"))?.[0];
  if (!commit) throw new Error(`${sourceMd} names no commit`);
  return { app, lock, commit };
}

/**
 * The cache keys. Install: lock, package.json and Node's version (native packages). Build: the
 * source tree's content (which the commit names, but a content hash also catches a local edit),
 * the install, and everything inlined at build time: backend URL, publishable key, default region.
 */
function cacheKeys(config: E2eConfig, backendUrl: string): { installKey: string; buildKey: string; commit: string } {
  const { app, lock, commit } = storefrontSource(config);
  const installKey = sha256(readFileSync(lock), readFileSync(join(app, "package.json")), process.versions.node);
  const tree = sha256(...filesOf(app).flatMap((file) => [file, readFileSync(join(app, file))]));
  const buildKey = sha256(installKey, commit, tree, backendUrl, PUBLISHABLE_KEY, COUNTRY, BASE_URL);
  return { installKey, buildKey, commit };
}

function readStamp(dir: string): CacheStamp | null {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP), "utf8")) as CacheStamp;
  } catch {
    return null;
  }
}

/** Copies the published tree over `dest` (node_modules and .next stay) and makes it writable: the source is read-only. */
function copySource(app: string, lock: string, dest: string): void {
  mkdirSync(dest, { recursive: true });
  for (const entry of readdirSync(dest))
    if (!["node_modules", ".next", STAMP].includes(entry)) rmSync(join(dest, entry), { recursive: true, force: true });
  cpSync(app, dest, { recursive: true });
  cpSync(lock, join(dest, "package-lock.json"));
  const writable = (path: string) => {
    chmodSync(path, statSync(path).mode | 0o200);
    if (statSync(path).isDirectory())
      for (const entry of readdirSync(path))
        if (entry !== "node_modules" && entry !== ".next") writable(join(path, entry));
  };
  writable(dest);
}

/** The environment the storefront is built and served with (Medusa's documented variables). */
function storefrontEnv(backendUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_PUBLIC_MEDUSA_BACKEND_URL: backendUrl,
    NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    NEXT_PUBLIC_DEFAULT_REGION: COUNTRY,
    NEXT_PUBLIC_BASE_URL: BASE_URL,
  };
}

export interface PreparedStorefront {
  dir: string;
  commit: string;
  installed: "cached" | "installed";
  built: "cached" | "built";
  installMs: number;
  buildMs: number;
}

/**
 * Makes `<workDir>/storefront` an install and build of the published storefront for `backendUrl`,
 * reusing what the stamp says is current. `next build` needs the backend up (it lists regions,
 * products, categories and collections), so Kasse and the proxy run before this.
 */
export async function prepareStorefront(
  config: E2eConfig,
  backendUrl: string,
  logDir: string,
): Promise<PreparedStorefront> {
  const { app, lock } = storefrontSource(config);
  const dir = join(config.workDir, "storefront");
  const { installKey, buildKey, commit } = cacheKeys(config, backendUrl);
  const stamp = readStamp(dir);
  const result: PreparedStorefront = { dir, commit, installed: "cached", built: "cached", installMs: 0, buildMs: 0 };

  if (stamp?.installKey !== installKey || !existsSync(join(dir, "node_modules", "next"))) {
    const started = performance.now();
    rmSync(dir, { recursive: true, force: true });
    copySource(app, lock, dir);
    await runCommand("npm ci (storefront)", "npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: "development" },
      logFile: join(logDir, "storefront-install.log"),
    });
    writeFileSync(join(dir, STAMP), JSON.stringify({ installKey } satisfies CacheStamp, null, 2));
    result.installed = "installed";
    result.installMs = performance.now() - started;
  }

  if (readStamp(dir)?.buildKey !== buildKey || !existsSync(join(dir, ".next", "BUILD_ID"))) {
    const started = performance.now();
    copySource(app, lock, dir);
    // A failed build must not leave a stamp that claims the old build matches.
    writeFileSync(join(dir, STAMP), JSON.stringify({ installKey } satisfies CacheStamp, null, 2));
    await runCommand(
      "next build",
      process.execPath,
      [join(dir, "node_modules", "next", "dist", "bin", "next"), "build"],
      { cwd: dir, env: storefrontEnv(backendUrl), logFile: join(logDir, "storefront-build.log") },
    );
    writeFileSync(join(dir, STAMP), JSON.stringify({ installKey, buildKey } satisfies CacheStamp, null, 2));
    result.built = "built";
    result.buildMs = performance.now() - started;
  }
  return result;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The address the storefront is served at (`port` from `freePort()`): the browser and Kasse's mailed links use it. */
export function storefrontUrl(port: number): string {
  // The middleware redirects to the host it is served as; the browser uses "localhost" throughout so cookies stay on one host.
  return `http://localhost:${port}`;
}

/**
 * Serves the build with `next start` on `port` (chosen before Kasse starts, which puts the
 * storefront's address in its emails: `STOREFRONT_URL`). Next's data cache (`force-cache` fetches,
 * e.g. the regions the middleware maps countries with) is emptied first: it holds ids of the Kasse
 * the build ran against, and each run's Kasse is new.
 */
export async function startStorefront(
  dir: string,
  backendUrl: string,
  logDir: string,
  port: number,
): Promise<{ url: string; service: Service }> {
  rmSync(join(dir, ".next", "cache", "fetch-cache"), { recursive: true, force: true });
  const service = startService(
    "next start",
    process.execPath,
    [join(dir, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: dir,
      env: storefrontEnv(backendUrl),
      logFile: join(logDir, "storefront.log"),
    },
  );
  await service.waitFor(/Ready in/, 60_000);
  return { url: storefrontUrl(port), service };
}
