import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { postgresTarget, SetupError } from "@kasse/db";
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "@kasse/modules/event";
import type { FileLimits, FileStorage } from "@kasse/modules/file";
import { DEFAULT_LEASE_MS } from "@kasse/workflows";

/** A configuration error naming each bad variable on a line of its own, as every check here says it. */
const invalid = (...problems: string[]) => new ConfigError(`Invalid configuration:\n  ${problems.join("\n  ")}`);

const Int = (def: number, minimum = 0) => Type.Integer({ default: def, minimum });
const Str = () => Type.Optional(Type.String({ minLength: 1 }));
/**
 * A string matching `pattern`; `expected` says in words what matches, and a configuration error
 * quotes it (a regular expression tells an operator little). The one way to give a variable a pattern.
 */
const Matching = (pattern: string, expected: string, options: { default?: string } = {}) =>
  Type.String({ ...options, pattern, expected });

/** Every environment variable Kasse reads, with its default. `kasse --help` prints this table. */
export const EnvSchema = Type.Object({
  DATABASE_URL: Str(),
  REDIS_URL: Str(),
  /** The prefix of every Redis key and channel of this install; default `kasse-` and a hash of the database's address. */
  REDIS_PREFIX: Type.Optional(Matching("^[A-Za-z0-9_.{}-]{1,64}$", "1 to 64 letters, digits, or . _ - { }")),
  PORT: Type.Integer({ default: 9000, minimum: 0, maximum: 65535 }),
  HOST: Type.String({ default: "0.0.0.0" }),
  /** Serve Prometheus metrics on this port (a listener of its own, never the API's); unset: none. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.String({ default: "127.0.0.1" }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  JWT_EXPIRES_IN: Matching("^\\d+[smhd]$", "a number and a unit s, m, h or d, e.g. 30m, 24h, 7d", { default: "24h" }),
  SCRYPT_LOG_N: Type.Integer({ default: 15, minimum: 1, maximum: 20 }),
  RATE_LIMIT_MAX: Type.Optional(Type.Integer({ minimum: 0 })),
  RATE_LIMIT_AUTH_MAX: Type.Optional(Type.Integer({ minimum: 0 })),
  RATE_LIMIT_WINDOW_MS: Int(60_000, 1),
  STORE_CORS: Type.String({ default: "*" }),
  ADMIN_CORS: Type.String({ default: "*" }),
  AUTH_CORS: Type.String({ default: "*" }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal("fatal"),
      Type.Literal("error"),
      Type.Literal("warn"),
      Type.Literal("info"),
      Type.Literal("debug"),
      Type.Literal("trace"),
      Type.Literal("silent"),
    ],
    { default: "info" },
  ),
  KASSE_DATA_DIR: Type.String({ default: ".kasse" }),
  KASSE_ADMIN_EMAIL: Str(),
  KASSE_ADMIN_PASSWORD: Str(),
  WORKER_CONCURRENCY: Int(4, 1),
  /**
   * This machine's part of every process's executor identity (`<id>:<role>`, e.g. `shop-1:api-0`);
   * default the host name. A process restarted with the same identity resumes its predecessor's
   * workflow executions at once (docs/recovery.md).
   */
  KASSE_EXECUTOR_ID: Type.Optional(Matching("^[A-Za-z0-9_.:@-]{1,100}$", "1 to 100 letters, digits, or . _ - : @")),
  /** How long a workflow execution's lease lasts without renewal (renewed every third of it). */
  WORKFLOW_LEASE_MS: Int(DEFAULT_LEASE_MS, 1000),
  /** How often the worker's recovery sweep looks for executions whose lease expired. */
  WORKFLOW_RECOVERY_MS: Int(2_000, 100),
  SHUTDOWN_TIMEOUT_MS: Int(10_000, 0),
  HTTP_HEADERS_TIMEOUT_MS: Int(10_000, 1),
  HTTP_REQUEST_TIMEOUT_MS: Int(25_000, 1),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Int(5_000, 1),
  TRUST_PROXY: Type.Boolean({ default: false }),
  SMTP_URL: Str(),
  WEBHOOK_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({ default: DEFAULT_RETRY_SCHEDULE, minLength: 1, maxLength: 200 }),
  EVENTS_POLL_MS: Int(250, 10),
  CATALOG_CACHE_ENTRIES: Int(256, 0),
  CATALOG_CACHE_MB: Int(32, 0),
  /** The storefront's address, for links in shopper emails (order transfer). */
  STOREFRONT_URL: Str(),
  /** Kasse's own public address (e.g. https://api.shop.example), for absolute URLs of files it serves (/static). */
  PUBLIC_URL: Str(),
  /** The languages the store offers (`GET /store/locales`): BCP 47 tags, comma separated. */
  STORE_LOCALES: Matching(
    "^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*(\\s*,\\s*[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)*)?$",
    "BCP 47 language tags separated by commas, e.g. en-US,de-DE",
    { default: "" },
  ),
  // Uploaded files (`POST /admin/uploads`): where they are stored (`local`: the disk, `s3`: a bucket), where the
  // local provider keeps them (default `<KASSE_DATA_DIR>/uploads`), the public URL they are served at (default
  // `<PUBLIC_URL>/static/uploads`, or the bucket's address), and the limits of an upload.
  FILE_PROVIDER: Type.Union([Type.Literal("local"), Type.Literal("s3")], { default: "local" }),
  FILE_DIR: Str(),
  FILE_BASE_URL: Str(),
  // The bucket of `FILE_PROVIDER=s3` (AWS S3, or MinIO, R2 and the like at `S3_ENDPOINT`).
  S3_BUCKET: Type.Optional(
    Matching("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", "a bucket name: 3 to 63 lowercase letters, digits, . and -"),
  ),
  S3_REGION: Type.String({ default: "us-east-1", minLength: 1, maxLength: 64 }),
  S3_ENDPOINT: Type.Optional(Matching("^https?://[^\\s/]+(/[^\\s]*)?$", "an http(s) URL, e.g. http://127.0.0.1:9000")),
  S3_ACCESS_KEY_ID: Str(),
  S3_SECRET_ACCESS_KEY: Str(),
  S3_FORCE_PATH_STYLE: Type.Boolean({ default: false }),
  S3_PREFIX: Matching(
    "^([A-Za-z0-9_.-]+/)*$",
    "folder names of letters, digits, _ . and - each ending in /, e.g. kasse/",
    {
      default: "",
    },
  ),
  UPLOAD_MAX_BYTES: Int(10 * 1024 * 1024, 1),
  UPLOAD_MAX_FILES: Int(10, 1),
  // The store's upload quota: all stored files together (default 5 GiB in 50,000 files).
  UPLOAD_QUOTA_BYTES: Int(5 * 1024 ** 3, 1),
  UPLOAD_QUOTA_FILES: Int(50_000, 1),
  ADMIN_UI: Type.Boolean({ default: true }),
  MEDUSA_BASE_PATH: Matching("^(/[A-Za-z0-9_-]+)+/?$", "a path of letters, digits, _ and -, e.g. /medusa", {
    default: "/medusa",
  }),
  /** Stripe (`pp_stripe_stripe`): registered when STRIPE_API_KEY is set (docs/payments.md). */
  STRIPE_API_KEY: Str(),
  STRIPE_WEBHOOK_SECRET: Str(),
  STRIPE_CAPTURE: Type.Union([Type.Literal("manual"), Type.Literal("automatic")], { default: "manual" }),
  STRIPE_API_URL: Type.Optional(
    Matching("^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$", "http(s)://host[:port], e.g. http://127.0.0.1:12111"),
  ),
  GOOGLE_CLIENT_ID: Str(),
  GOOGLE_CLIENT_SECRET: Str(),
  GOOGLE_CALLBACK_URL: Str(),
  GITHUB_CLIENT_ID: Str(),
  GITHUB_CLIENT_SECRET: Str(),
  GITHUB_CALLBACK_URL: Str(),
  // OAuth endpoints default to the real providers'; override them for a proxy or a test identity provider.
  GOOGLE_AUTHORIZE_URL: Str(),
  GOOGLE_TOKEN_URL: Str(),
  GOOGLE_USERINFO_URL: Str(),
  GOOGLE_SUCCESS_REDIRECT_URL: Str(),
  GITHUB_AUTHORIZE_URL: Str(),
  GITHUB_TOKEN_URL: Str(),
  GITHUB_USERINFO_URL: Str(),
  GITHUB_EMAILS_URL: Str(),
  GITHUB_SUCCESS_REDIRECT_URL: Str(),
});

export type Env = Static<typeof EnvSchema>;

export interface Config {
  env: Env;
  /** Embedded mode: no DATABASE_URL, so PGlite under the data dir and an in-process worker. */
  embedded: boolean;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** The prefix of this install's Redis keys and channels (`REDIS_PREFIX`, else derived from the database). */
  redisPrefix: string;
  port: number;
  host: string;
  dataDir: string;
  jwt: { secret: Uint8Array; expiresIn: string };
  scryptLogN: number;
  /** `max` 0 means limiting is off. */
  rateLimit: { max: number; authMax: number; windowMs: number };
  cors: { store: string[]; admin: string[]; auth: string[] };
  logLevel: Env["LOG_LEVEL"];
  /** Take the client address from `X-Forwarded-For` (only behind a proxy you run: else clients pick their rate-limit key). */
  trustProxy: boolean;
  shutdownTimeoutMs: number;
  /**
   * How long a client may take: to send its headers, to send the whole request, and to send the
   * next request on an idle keep-alive connection. A slow or silent client is cut when one runs out.
   */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  workerConcurrency: number;
  /**
   * Workflow recovery (docs/recovery.md): the machine's part of each process's executor identity
   * (`KASSE_EXECUTOR_ID`, else the host name), the lease length (`WORKFLOW_LEASE_MS`) and the
   * recovery sweep's period (`WORKFLOW_RECOVERY_MS`).
   */
  workflows: { executorHost: string; leaseMs: number; recoveryEveryMs: number };
  /** Where this process serves its Prometheus metrics (`METRICS_PORT`, `METRICS_HOST`); undefined: it serves none. */
  metrics: { port: number; host: string } | undefined;
  /**
   * Event delivery: webhook endpoints may be loopback/private addresses only with `allowPrivate`
   * (`WEBHOOK_ALLOW_PRIVATE`); the delays before each retry of a failed delivery (`WEBHOOK_RETRY_SCHEDULE`);
   * how often the worker looks for released events (`EVENTS_POLL_MS`).
   */
  events: { allowPrivate: boolean; retrySchedule: number[]; pollMs: number };
  /** The payment providers configured beyond the built-in ones: Stripe with `STRIPE_API_KEY` (docs/payments.md). */
  payments: { stripe?: StripeConfig };
  /** Medusa's dialect of the API (money in major units) under `basePath`, e.g. `/medusa/store/products`. */
  medusa: { basePath: string };
  /** Medusa's admin dashboard at /app, built to call Kasse's Medusa dialect at `backendPath` (= `medusa.basePath`) on the same origin. */
  adminUi: { enabled: boolean; backendPath: string };
  /**
   * Uploads: where files are stored and served from (`FILE_PROVIDER`, `FILE_DIR`, `FILE_BASE_URL`, `S3_*`),
   * Kasse's own address its files' references are answered against (`PUBLIC_URL`), the limits and the quota.
   */
  files: { storage: FileStorage; publicUrl: string } & FileLimits;
}

/** Kasse's address as shoppers' browsers reach it: `PUBLIC_URL`, else `http://localhost:{PORT}`. */
function publicUrlOf(env: Pick<Env, "PUBLIC_URL" | "PORT">): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
}

export class ConfigError extends SetupError {
  override name = "ConfigError";
}

/**
 * What a variable's schema allows, in words: every configuration error says it (a literal union's
 * values, a boolean's, an integer's range, a pattern's `expected`, a string's length).
 */
export function allowedValues(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) return `one of ${(schema.anyOf as TSchema[]).map((s) => s.const).join(", ")}`;
  if (schema.type === "boolean") return "true or false";
  if (schema.type === "integer") {
    const { minimum: min, maximum: max } = schema as { minimum?: number; maximum?: number };
    if (min !== undefined && max !== undefined) return `a whole number from ${min} to ${max}`;
    return min !== undefined ? `a whole number of at least ${min}` : "a whole number";
  }
  if (typeof schema.expected === "string") return schema.expected;
  const { minLength: min, maxLength: max } = schema as { minLength?: number; maxLength?: number };
  if (min !== undefined && min > 1 && max !== undefined) return `from ${min} to ${max} characters`;
  if (max !== undefined) return `at most ${max} characters`;
  return min !== undefined && min > 1 ? `at least ${min} characters` : "a string";
}

/** Variables whose value is never repeated in an error: secrets, and URLs (they may carry a password). */
const UNQUOTED = /SECRET|PASSWORD|_KEY$|_URL$/;

/** One bad variable: its name, its value unless secret, and what it allows. */
function problemOf(name: string, value: unknown): string {
  const schema = (EnvSchema.properties as Record<string, TSchema>)[name];
  if (!schema) return `${name || "env"}: not a valid configuration`;
  const given = UNQUOTED.test(name) ? name : `${name}=${String(value)}`;
  return `${given}: expected ${allowedValues(schema)}`;
}

/**
 * The prefix of this install's Redis keys and channels (BullMQ queues, rate-limit counters, event
 * wake-ups), so two installs sharing one Redis never share a queue: `REDIS_PREFIX`, else `kasse-`
 * and a short hash of the database's host, port and name (of the data folder in embedded mode).
 * Every process of one install must therefore name the database alike (or set `REDIS_PREFIX`).
 */
function redisPrefixOf(env: Env, dataDir: string): string {
  if (env.REDIS_PREFIX) return env.REDIS_PREFIX;
  let install = `embedded:${dataDir}`;
  if (env.DATABASE_URL) {
    try {
      const { host, port, database } = postgresTarget(env.DATABASE_URL);
      install = `${host.toLowerCase()}:${port}/${database}`;
    } catch {
      throw invalid("DATABASE_URL: expected a URL such as postgres://user:password@host:5432/database");
    }
  }
  return `kasse-${createHash("sha256").update(install).digest("hex").slice(0, 8)}`;
}

/** What commands and processes that serve no HTTP need (migrate, seed, user create, the worker): no JWT secret. */
export type BaseConfig = Pick<
  Config,
  | "env"
  | "embedded"
  | "databaseUrl"
  | "redisUrl"
  | "redisPrefix"
  | "dataDir"
  | "scryptLogN"
  | "logLevel"
  | "shutdownTimeoutMs"
  | "workerConcurrency"
  | "workflows"
  | "metrics"
  | "events"
  | "files"
  | "payments"
>;

/** How Kasse reaches a Stripe account (`STRIPE_*`). */
export interface StripeConfig {
  apiKey: string;
  webhookSecret: string;
  capture: "manual" | "automatic";
  apiUrl?: string;
}

/** Stripe's configuration when `STRIPE_API_KEY` is set; its webhook secret is then required (webhooks place orders). */
function stripeConfigOf(env: Env): StripeConfig | undefined {
  if (!env.STRIPE_API_KEY) {
    if (env.STRIPE_WEBHOOK_SECRET || env.STRIPE_API_URL)
      throw invalid("STRIPE_API_KEY: required when another STRIPE_ variable is set");
    return undefined;
  }
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw invalid(
      "STRIPE_WEBHOOK_SECRET: required with STRIPE_API_KEY (the signing secret of the webhook endpoint, whsec_…)",
    );
  return {
    apiKey: env.STRIPE_API_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    capture: env.STRIPE_CAPTURE,
    apiUrl: env.STRIPE_API_URL,
  };
}

/**
 * Reads and validates the environment without requiring what only the HTTP API uses (JWT_SECRET).
 * Throws a {@link ConfigError} naming every bad variable.
 * @example
 * const config = loadBaseConfig(process.env); // `kasse migrate` needs only DATABASE_URL
 */
export function loadBaseConfig(source: Record<string, string | undefined> = process.env): BaseConfig {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  // One line per variable (a union reports each variant too), each saying what the variable allows.
  const names = new Set([...Value.Errors(EnvSchema, converted)].map((e) => e.path.split("/")[1] ?? ""));
  const problems = [...names].map((name) => problemOf(name, raw[name]));
  if (problems.length > 0) throw invalid(...problems);
  const env = converted as Env;
  let retrySchedule: number[];
  try {
    retrySchedule = parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE);
  } catch (error) {
    throw invalid(`WEBHOOK_RETRY_SCHEDULE: ${(error as Error).message}`);
  }
  const dataDir = resolve(env.KASSE_DATA_DIR);
  return {
    env,
    embedded: !env.DATABASE_URL,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: redisPrefixOf(env, dataDir),
    dataDir,
    scryptLogN: env.SCRYPT_LOG_N,
    logLevel: env.LOG_LEVEL,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    workerConcurrency: env.WORKER_CONCURRENCY,
    workflows: {
      executorHost: env.KASSE_EXECUTOR_ID ?? hostname(),
      leaseMs: env.WORKFLOW_LEASE_MS,
      recoveryEveryMs: env.WORKFLOW_RECOVERY_MS,
    },
    metrics: env.METRICS_PORT === undefined ? undefined : { port: env.METRICS_PORT, host: env.METRICS_HOST },
    events: { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE, retrySchedule, pollMs: env.EVENTS_POLL_MS },
    payments: { stripe: stripeConfigOf(env) },
    files: {
      storage: fileStorageOf(env, dataDir),
      publicUrl: publicUrlOf(env),
      maxBytes: env.UPLOAD_MAX_BYTES,
      maxFiles: env.UPLOAD_MAX_FILES,
      quotaBytes: env.UPLOAD_QUOTA_BYTES,
      quotaFiles: env.UPLOAD_QUOTA_FILES,
    },
  };
}

/**
 * Where uploaded files go: the local disk (served by Kasse at `{PUBLIC_URL}/static/uploads`), or
 * the bucket of `FILE_PROVIDER=s3`, which needs `S3_BUCKET`, and both keys or neither (neither: the
 * SDK's own credential chain).
 */
function fileStorageOf(env: Env, dataDir: string): FileStorage {
  const baseUrl = env.FILE_BASE_URL?.replace(/\/+$/, "");
  if (env.FILE_PROVIDER === "local")
    return {
      provider: "local",
      dir: resolve(env.FILE_DIR ?? join(dataDir, "uploads")),
      baseUrl: baseUrl ?? `${publicUrlOf(env)}/static/uploads`,
    };
  if (!env.S3_BUCKET) throw invalid("S3_BUCKET: required when FILE_PROVIDER=s3");
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY)
    throw invalid(
      `${env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"}: required with ${env.S3_ACCESS_KEY_ID ? "S3_ACCESS_KEY_ID" : "S3_SECRET_ACCESS_KEY"} (set both, or neither for the SDK's credential chain)`,
    );
  return {
    provider: "s3",
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
    baseUrl,
  };
}

/**
 * Reads and validates the environment for serving the API. Throws a {@link ConfigError} naming
 * every bad variable, or JWT_SECRET when DATABASE_URL is set without it.
 * @example
 * const config = loadConfig(process.env);
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const base = loadBaseConfig(source);
  const { env, embedded, dataDir } = base;
  const secret = env.JWT_SECRET ?? (embedded ? embeddedSecret(dataDir) : undefined);
  if (!secret) throw new ConfigError("JWT_SECRET is required when DATABASE_URL is set (at least 16 characters).");
  // Node refuses a headers timeout longer than the request timeout (headers are part of the request).
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS.");
  const list = (value: string) =>
    value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const serviceDefault = (value: number | undefined, fallback: number) => value ?? (embedded ? 0 : fallback);
  return {
    ...base,
    port: env.PORT,
    host: env.HOST,
    jwt: { secret: new TextEncoder().encode(secret), expiresIn: env.JWT_EXPIRES_IN },
    rateLimit: {
      max: serviceDefault(env.RATE_LIMIT_MAX, 3000),
      authMax: serviceDefault(env.RATE_LIMIT_AUTH_MAX, 120),
      windowMs: env.RATE_LIMIT_WINDOW_MS,
    },
    cors: { store: list(env.STORE_CORS), admin: list(env.ADMIN_CORS), auth: list(env.AUTH_CORS) },
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    trustProxy: env.TRUST_PROXY,
    medusa: { basePath: env.MEDUSA_BASE_PATH.replace(/\/+$/, "") },
    // One setting: the dashboard calls the dialect wherever it is served.
    adminUi: { enabled: env.ADMIN_UI, backendPath: env.MEDUSA_BASE_PATH.replace(/\/+$/, "") },
  };
}

/** In embedded mode the JWT secret is generated once and kept beside the data, so tokens survive restarts. */
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
