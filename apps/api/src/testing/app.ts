import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, joinTestDatabase, lazy, type TestDatabase } from "@kasse/db/testing";
import { buildApp, type App, type BuildAppOptions } from "../app";
import {
  type Infrastructure,
  loadConfig,
  type Config,
  createWorkflowRuntime,
  createLogger,
  modulesOptions,
} from "@kasse/runtime";
import type { Scheduler } from "@kasse/workflows";
import { actorHeaders } from "./actors";

type Headers = Record<string, string>;
type Answer = Awaited<ReturnType<App["inject"]>>;

/** Requests as one caller: its credentials are added to every request (extra `headers` win). */
export interface Requester {
  get(url: string, headers?: Headers): Promise<Answer>;
  /** A JSON body when `payload` is given, none otherwise. */
  post(url: string, payload?: unknown, headers?: Headers): Promise<Answer>;
  delete(url: string, payload?: unknown, headers?: Headers): Promise<Answer>;
}

export interface TestApp {
  app: App;
  /** Requests as the admin user `adminId` of the options (`t.admin.post("/admin/regions", body)`). */
  admin: Requester;
  /** Requests as an anonymous store (or auth) client: no credentials, the default sales channel. */
  store: Requester;
  /** Requests as the customer `customerId` (see {@link customerHeaders}). */
  customer(customerId: string): Requester;
  database: TestDatabase;
  config: Config;
  /**
   * `authorization` header of an admin user: a token of a real auth identity linked to a real user
   * `actorId` (both created on first use), so it passes the same checks as a signed-in admin's.
   */
  adminHeaders(actorId?: string): Promise<Record<string, string>>;
  /** `authorization` header of a customer: a token of a real auth identity linked to `customerId` (the customer row is not created). */
  customerHeaders(customerId: string): Promise<Record<string, string>>;
  /** Closes the app and drops the test database. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** The user behind `t.admin` (`user_test_admin` by default): a test that asserts who did something names its own. */
  adminId?: string;
  /** A Redis client for the app's infrastructure (rate-limit store); the caller closes it. */
  redis?: Infrastructure["redis"];
  /** The engine's scheduler (e.g. a BullMQ one the test owns); in-process timers by default. */
  scheduler?: Scheduler;
  /** Extra routes for the test (e.g. one that throws), registered before `ready()`. */
  extraRoutes?: BuildAppOptions["extraRoutes"];
  /** Logger options added to Kasse's (e.g. `{ level: "trace", stream }` to capture every line); no logging by default. */
  logger?: BuildAppOptions["logger"];
  /** Serve this other test app's database instead of a fresh one, as a second API process would (its own pool on PostgreSQL). */
  databaseOf?: TestApp;
}

/**
 * An app over a fresh test database (PostgreSQL when `DATABASE_URL` is set, else PGlite),
 * not listening: drive it with `app.inject`. Call once per test file.
 * @example
 * const t = await createTestApp();
 * afterAll(() => t.close());
 * const res = await t.app.inject({ method: "GET", url: "/health" });
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.databaseOf
    ? await joinTestDatabase(options.databaseOf.database)
    : await createTestDatabase();
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    SCRYPT_LOG_N: "4",
    LOG_LEVEL: "silent",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    ...env,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const logger = testLogger(config, options.logger);
  const workflows = createWorkflowRuntime(database, {
    scheduler: options.scheduler,
    leaseMs: 5_000,
    logger,
    modules: modulesOptions(config, logger),
  });
  const app = await buildApp({
    config,
    infra: { database, redis: options.redis, ...workflows },
    logger: options.logger ?? false,
    extraRoutes: options.extraRoutes,
    checkResponses: true,
  });
  await app.ready();
  const adminHeaders = (actorId = "user_test_admin") => actorHeaders(app, "user", actorId);
  const customerHeaders = (customerId: string) => actorHeaders(app, "customer", customerId);
  return {
    app,
    admin: requester(
      app,
      once(() => adminHeaders(options.adminId)),
    ),
    store: requester(app, async () => ({})),
    customer: (customerId) =>
      requester(
        app,
        once(() => customerHeaders(customerId)),
      ),
    database,
    config,
    adminHeaders,
    customerHeaders,
    close: async () => {
      await app.close();
      await workflows.engine.drain(5_000);
      if (!options.scheduler) await workflows.scheduler.close();
      await database.close();
    },
  };
}

/**
 * The test file's app, made before its tests and closed after them: `const t = useTestApp();` at the
 * top of the file stands for `let t` with its `beforeAll`/`afterAll`. Read it inside tests and hooks
 * (a `beforeAll` registered after this line sees it made).
 */
export function useTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): TestApp {
  let made: TestApp | undefined;
  beforeAll(async () => {
    made = await createTestApp(env, options);
  });
  afterAll(() => made?.close());
  return lazy(() => {
    if (!made) throw new Error("useTestApp: read before the app was made (outside a test or hook)");
    return made;
  });
}

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** The engine's logger in a test app: silent, or writing where the test's logger options say (with the app's lines). */
function testLogger(config: Config, options: TestAppOptions["logger"]) {
  if (!options) return silent;
  return createLogger(config.logLevel, options === true ? {} : options);
}

/** The credentials are made on the first request and reused, as a test's `const admin = await t.adminHeaders()` is. */
function once(make: () => Promise<Headers>): () => Promise<Headers> {
  let made: Promise<Headers> | undefined;
  return () => (made ??= make());
}

function requester(app: App, credentials: () => Promise<Headers>): Requester {
  const send = async (method: "GET" | "POST" | "DELETE", url: string, payload: unknown, headers: Headers = {}) =>
    app.inject({
      method,
      url,
      headers: { ...(await credentials()), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url, headers) => send("GET", url, undefined, headers),
    post: (url, payload, headers) => send("POST", url, payload, headers),
    delete: (url, payload, headers) => send("DELETE", url, payload, headers),
  };
}
