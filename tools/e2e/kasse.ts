import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, PUBLISHABLE_KEY, type E2eConfig } from "./config";
import { runCommand, startService, type Service } from "./processes";

/** A Kasse started for the suite: embedded mode on a fresh data dir, seeded with the fixed publishable key. */
export interface RunningKasse {
  url: string;
  service: Service;
  dataDir: string;
  api: KasseApi;
  stop(): Promise<void>;
}

/** A failed call to Kasse's API, with what Kasse answered. */
class KasseApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 500)}`);
  }
}

/**
 * The suite's own line to Kasse, at the root (the contract: integer minor units), bypassing the
 * recording proxy: it reads what Kasse computed and prepares data, and its requests are not the
 * storefront's.
 */
export interface KasseApi {
  store<T>(method: string, path: string, body?: unknown, token?: string): Promise<T>;
  admin<T>(method: string, path: string, body?: unknown): Promise<T>;
}

function createApi(url: string): KasseApi {
  let adminToken: string | undefined;
  async function call<T>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new KasseApiError(res.status, text, `${method} ${path}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
  return {
    store: (method, path, body, token) =>
      call(
        method,
        path,
        { "x-publishable-api-key": PUBLISHABLE_KEY, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      ),
    async admin(method, path, body) {
      adminToken ??= (await call<{ token: string }>("POST", "/auth/user/emailpass", {}, ADMIN)).token;
      return call(method, path, { authorization: `Bearer ${adminToken}` }, body);
    },
  };
}

/**
 * Seeds a fresh embedded data dir with the demo store under the fixed publishable key, then runs
 * `kasse start` on a free port (with the admin the suite signs in as, `smtpUrl` for email and
 * `storefrontUrl` for the links in shopper emails).
 */
export async function startKasse(
  config: E2eConfig,
  options: { logFile: string; smtpUrl: string; storefrontUrl: string },
): Promise<RunningKasse> {
  const dataDir = mkdtempSync(join(tmpdir(), "kasse-e2e-"));
  const bin = join(config.root, "apps", "cli", "bin", "kasse.js");
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    KASSE_DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "warn",
    KASSE_ADMIN_EMAIL: ADMIN.email,
    KASSE_ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: options.smtpUrl,
    STOREFRONT_URL: options.storefrontUrl,
    // The demo products' pictures are Kasse's files, reached by the browser through the recording proxy.
    PUBLIC_URL: `http://127.0.0.1:${config.backendPort}`,
  };
  const cleanup = () => {
    if (!config.keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await runCommand("kasse seed", process.execPath, [bin, "seed", "--publishable-key", PUBLISHABLE_KEY], {
      cwd: config.root,
      env,
      logFile: options.logFile,
    });
    const service = startService("kasse start", process.execPath, [bin, "start"], {
      cwd: config.root,
      env,
      logFile: options.logFile,
    });
    const [, url] = await service.waitFor(/Kasse listening on (http:\/\/\S+)/, 120_000);
    return {
      url: url!,
      service,
      dataDir,
      api: createApi(url!),
      async stop() {
        await service.stop();
        cleanup();
      },
    };
  } catch (error) {
    cleanup();
    throw error;
  }
}
