import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace folder (`apps/admin`). */
export const adminDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Where builds go, one folder per set of inputs (ignored by git). */
export const distDir = join(adminDir, "dist");
/** The URL path Kasse serves the dashboard under; baked into the build (asset URLs, router basename). */
export const ADMIN_BASE = "/app";
/**
 * Where a build is bundled before it is renamed into `distDir`: inside the workspace, so that the
 * bundler resolves the dashboard's packages (react, …) from the repository's node_modules even when
 * `dist` is a link to a cache elsewhere (as CI makes it).
 */
export const scratchDir = join(adminDir, ".work");
/** The script the build's child process runs. */
export const bundleScript = join(adminDir, "src", "bundle.mjs");

const repoRoot = resolve(adminDir, "../..");

export interface AdminBuildOptions {
  /** Path on the dashboard's own origin where it finds Kasse's Medusa-dialect API (`/` = the root). */
  backendPath: string;
}

export interface BuildInputs {
  /** Content hash of everything below: a build is reused while it is unchanged. */
  hash: string;
  dashboard: string;
  bundler: string;
  backendPath: string;
  base: string;
  authType: "jwt";
}

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The inputs of a dashboard build and their hash: the installed `@medusajs/dashboard` and
 * `@medusajs/admin-bundler`, every package they pull in (from the lockfile, so a change elsewhere
 * in the repository's dependencies does not rebuild), the backend path, the base and the build script.
 */
export function buildInputs(options: AdminBuildOptions): BuildInputs {
  const dashboard = installedVersion("@medusajs/dashboard");
  const bundler = installedVersion("@medusajs/admin-bundler");
  const backendPath = normalizeBackendPath(options.backendPath);
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ dashboard, bundler, backendPath, base: ADMIN_BASE, authType: "jwt" }));
  hash.update(readFileSync(bundleScript));
  for (const line of lockedTree()) hash.update(`${line}\n`);
  return { hash: hash.digest("hex").slice(0, 16), dashboard, bundler, backendPath, base: ADMIN_BASE, authType: "jwt" };
}

let lockedTreeOf: { key: string; lines: string[] } | undefined;

/**
 * The lockfile's closure of the dashboard's packages, read again only when the lockfile changed: a
 * start asks twice (the /app route and the start's message) and parsing the lockfile was 15 ms each.
 * Without a lockfile (an install that did not come from this repository) the two versions stand for the tree.
 */
function lockedTree(): string[] {
  const lockfile = join(repoRoot, "package-lock.json");
  if (!existsSync(lockfile)) return [];
  const { mtimeMs, size } = statSync(lockfile);
  const key = `${mtimeMs}:${size}`;
  if (lockedTreeOf?.key !== key)
    lockedTreeOf = {
      key,
      lines: lockClosure(JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockEntry> }),
    };
  return lockedTreeOf.lines;
}

/** `/medusa/` and `medusa` are `/medusa`; the root stays `/`. */
export function normalizeBackendPath(path: string): string {
  const trimmed = path.trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}` : "/";
}

function installedVersion(name: string): string {
  for (const dir of [join(adminDir, "node_modules", name), join(repoRoot, "node_modules", name)]) {
    const file = join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  throw new Error(`${name} is not installed: run npm install in the repository root.`);
}

/**
 * Every package `apps/admin` depends on, directly or not, as `location@version:integrity`, sorted:
 * walks the lockfile the way Node resolves (own node_modules first, then each enclosing one).
 */
export function lockClosure(lock: { packages: Record<string, LockEntry> }, from = "apps/admin"): string[] {
  const packages = lock.packages;
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    const at = queue.pop()!;
    const entry = packages[at];
    const names = Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies, ...entry?.peerDependencies });
    for (const name of names) {
      let location = resolveIn(packages, at, name);
      // A workspace package is a link entry; its dependencies are listed under the folder it points to.
      const linked = location ? packages[location] : undefined;
      if (linked?.link && linked.resolved) location = linked.resolved;
      if (!location || seen.has(location)) continue;
      seen.add(location);
      queue.push(location);
    }
  }
  return [...seen]
    .sort()
    .map((location) => `${location}@${packages[location]?.version ?? ""}:${packages[location]?.integrity ?? ""}`);
}

function resolveIn(packages: Record<string, LockEntry>, at: string, name: string): string | undefined {
  let dir = at;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut >= 0 ? dir.slice(0, cut) : "";
  }
}
