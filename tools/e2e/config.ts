import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Everything the suite can be told, read once from the environment (each variable is listed in tools/e2e/README.md). */
export interface E2eConfig {
  /** The Kasse checkout the suite runs (the repository root). */
  root: string;
  /** Ignored folder holding the storefront install and build (the cache) and the run's artifacts. */
  workDir: string;
  /** Where the published storefront lives: `shared/clients/storefront-src` beside the repository. */
  storefrontSource: string;
  /** Path under Kasse that the storefront is pointed at: "/medusa" (Medusa's dialect) or "" (the contract at the root). */
  basePath: string;
  /** Port of the recording proxy the storefront is built against; fixed so that the build stays cacheable. */
  backendPort: number;
  chromium: string;
  /** Journeys to run (all when empty). */
  journeys: string[];
  /** Upper bound of one browser action or wait. */
  actionTimeoutMs: number;
  /** Keep Kasse's data dir after the run (it is removed otherwise). */
  keepData: boolean;
}

/**
 * The demo store's publishable key token. Fixed (through `kasse seed --publishable-key`) because the
 * storefront inlines it at build time: a new key per run would force a new build per run.
 */
export const PUBLISHABLE_KEY = "pk_kasse_e2e_storefront_0000000000000000";
export const ADMIN = { email: "e2e-admin@kasse.local", password: "e2e-admin-password" };
export const COUNTRY = "us";

const here = dirname(fileURLToPath(import.meta.url));

/** The first `shared/clients/storefront-src` found beside the repository or one of its parents. */
function findStorefrontSource(root: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, "shared", "clients", "storefront-src");
    if (existsSync(join(candidate, "SOURCE.md"))) return candidate;
    if (dirname(dir) === dir) return join(dirname(root), "shared", "clients", "storefront-src");
  }
}

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

/** "/medusa/" → "/medusa", "/" or "" → "" (the root). */
export function normalizeBasePath(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, "");
  if (trimmed === "") return "";
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed))
    throw new Error(`KASSE_E2E_BASE_PATH must be a path like /medusa (or / for the root), got '${raw}'`);
  return trimmed;
}

/** Reads the suite's configuration; a malformed value stops the suite before anything starts. */
export function loadE2eConfig(): E2eConfig {
  const root = resolve(here, "..", "..");
  return {
    root,
    workDir: resolve(process.env.KASSE_E2E_DIR || join(root, ".e2e")),
    storefrontSource: resolve(process.env.KASSE_E2E_STOREFRONT_SRC || findStorefrontSource(root)),
    basePath: normalizeBasePath(process.env.KASSE_E2E_BASE_PATH ?? "/medusa"),
    backendPort: integer("KASSE_E2E_BACKEND_PORT", 9309),
    chromium: process.env.KASSE_E2E_CHROMIUM || "/usr/bin/chromium",
    journeys: (process.env.KASSE_E2E_JOURNEYS ?? "")
      .split(",")
      .map((j) => j.trim())
      .filter(Boolean),
    actionTimeoutMs: integer("KASSE_E2E_TIMEOUT_MS", 20_000),
    keepData: process.env.KASSE_E2E_KEEP_DATA === "1",
  };
}
