import { EnvSchema, type Env } from "@kasse/runtime";

/** What each environment variable does; typed so that a variable added to `EnvSchema` must be described here. */
const envDescriptions: Record<keyof Env, string> = {
  DATABASE_URL: "PostgreSQL URL. Unset: embedded mode (PGlite under KASSE_DATA_DIR, in-process worker)",
  REDIS_URL: "Redis URL: BullMQ queues and shared rate-limit counters",
  REDIS_PREFIX:
    "Prefix of every Redis key and channel of this install (queues, rate-limit counters, event wake-ups); default kasse- and a hash of the database's host, port and name",
  PORT: "HTTP port",
  HOST: "HTTP listen address",
  METRICS_PORT:
    "Port of this process's Prometheus metrics (GET /metrics), a listener apart from the API; unset = none. Each process on a machine needs its own (kasse start --processes N: the primary serves them all)",
  METRICS_HOST: "Listen address of the metrics (keep it private: they name routes, workflows and volumes)",
  JWT_SECRET:
    "Secret signing the JWTs, 16+ characters (required by `kasse start` with DATABASE_URL; generated in embedded mode)",
  JWT_EXPIRES_IN: "JWT lifetime, e.g. 24h, 30m",
  SCRYPT_LOG_N: "scrypt cost (log2 N) for new password hashes",
  RATE_LIMIT_MAX: "Requests per client per window on all routes; 0 = off (default 3000, 0 in embedded mode)",
  RATE_LIMIT_AUTH_MAX: "Requests per client per window on /auth/*; 0 = off (default 120, 0 in embedded mode)",
  RATE_LIMIT_WINDOW_MS: "Rate-limit window in milliseconds",
  STORE_CORS: "Allowed origins of /store requests, comma-separated (* = any)",
  ADMIN_CORS: "Allowed origins of /admin requests, comma-separated (* = any)",
  AUTH_CORS: "Allowed origins of /auth requests, comma-separated (* = any)",
  LOG_LEVEL: "fatal, error, warn, info, debug, trace or silent",
  KASSE_DATA_DIR: "Embedded mode's directory (database, generated JWT secret)",
  KASSE_ADMIN_EMAIL: "Email of the admin user created on the first embedded start",
  KASSE_ADMIN_PASSWORD: "Its password, 8 characters or more (generated and printed once when unset)",
  WORKER_CONCURRENCY: "Workflow jobs a worker runs at once",
  KASSE_EXECUTOR_ID:
    "This machine's part of each process's executor identity (<id>:api, api-<n>, worker), default the host name: a process restarted under the same identity resumes its predecessor's workflow executions at once",
  WORKFLOW_LEASE_MS:
    "How long a workflow execution's lease lasts unrenewed (renewed every third of it): a dead process's executions are taken over after it",
  WORKFLOW_RECOVERY_MS: "How often the worker's recovery sweep looks for executions whose lease expired",
  SHUTDOWN_TIMEOUT_MS:
    "How long shutdown lets in-flight requests and workflow steps finish (executions pause at a step halfway through) before closing connections",
  HTTP_HEADERS_TIMEOUT_MS:
    "Time a client has to send a request's headers; past it (checked every second) it is answered 408 and disconnected",
  HTTP_REQUEST_TIMEOUT_MS:
    "Time a client has to send a whole request, headers and body; past it (checked every second) it is answered 408 and disconnected",
  HTTP_KEEP_ALIVE_TIMEOUT_MS:
    "Idle time a keep-alive connection waits for its next request (Node adds 1 s); behind a load balancer, set it above the balancer's idle timeout",
  TRUST_PROXY: "Take the client address from X-Forwarded-For (set only behind your own proxy; rate limits key on it)",
  SMTP_URL: "SMTP server for notification emails (smtp://user:pass@host:port)",
  WEBHOOK_ALLOW_PRIVATE:
    "Allow webhook endpoints on loopback, private and link-local addresses (checked at creation and against the resolved address at each delivery; off = SSRF guard)",
  WEBHOOK_RETRY_SCHEDULE:
    "Delays before each retry of a failed webhook delivery, comma-separated (ms, s, m, h, d), each with ±20% jitter; after the last one the event is given up for that endpoint",
  CATALOG_CACHE_ENTRIES:
    "Store catalog answers (product and variant lists and pages, by region, channel, customer group and query) each API process keeps, checked against the catalog version on every read; 0 = off",
  CATALOG_CACHE_MB:
    "Memory the catalog cache of each API process may use (estimated as twice each answer's JSON: its objects and one serialized body); least recently used answers go first; 0 = off",
  EVENTS_POLL_MS:
    "How often the worker looks for committed events to deliver (a workflow in the same process wakes it at once)",
  STOREFRONT_URL:
    "The storefront's address, for links in shopper emails (order transfer: {STOREFRONT_URL}/order/{id}/transfer/{token})",
  PUBLIC_URL:
    "Kasse's public address, for absolute URLs of the files it serves under /static (demo product images); default http://localhost:{PORT}",
  STORE_LOCALES:
    "Languages the store offers (GET /store/locales), BCP 47 tags comma separated (en-US,de-DE); none by default",
  FILE_PROVIDER:
    "Where uploaded files (product images, the demo store's pictures) are stored: local (this machine's disk, served by Kasse) or s3 (a bucket every API process shares)",
  FILE_DIR: "Where the local provider keeps uploaded files on disk (default <KASSE_DATA_DIR>/uploads)",
  FILE_BASE_URL:
    "Public URL uploaded files are served at, e.g. a CDN (default {PUBLIC_URL}/static/uploads; with s3 the bucket's own address)",
  S3_BUCKET: "The bucket of FILE_PROVIDER=s3 (required with it)",
  S3_REGION: "The bucket's region (default us-east-1; auto for Cloudflare R2)",
  S3_ENDPOINT: "The S3-compatible service's address for MinIO, R2 and the like (default AWS S3)",
  S3_ACCESS_KEY_ID: "The access key of the bucket (with S3_SECRET_ACCESS_KEY; neither: the AWS SDK's credential chain)",
  S3_SECRET_ACCESS_KEY: "The secret of S3_ACCESS_KEY_ID",
  S3_FORCE_PATH_STYLE: "Address the bucket as {S3_ENDPOINT}/{bucket} instead of {bucket}.{host} (MinIO; default false)",
  S3_PREFIX: "Put before every file's key in the bucket, folders ending in / (e.g. kasse/; default none)",
  UPLOAD_MAX_BYTES: "Largest file an admin may upload, in bytes (default 10485760)",
  UPLOAD_MAX_FILES: "Most files one upload may carry (default 10)",
  UPLOAD_QUOTA_BYTES: "Most bytes all uploaded files together may take (default 5 GiB); an upload past it is 429",
  UPLOAD_QUOTA_FILES: "Most uploaded files the store may keep (default 50000); an upload past it is 429",
  ADMIN_UI: "Serve Medusa's admin dashboard at /app (built in the background on the first start; false = off)",
  MEDUSA_BASE_PATH:
    "Base path of Medusa v2's dialect of the API (money in major units; point Medusa clients at http://host:9000/medusa); the admin dashboard at /app calls it, so a change rebuilds the dashboard",
  STRIPE_API_KEY:
    "Stripe secret API key (sk_live_… / sk_test_… or a restricted key); set: the pp_stripe_stripe payment provider is registered",
  STRIPE_WEBHOOK_SECRET:
    "Signing secret of the Stripe webhook endpoint /hooks/payment/stripe_stripe (whsec_…); required with STRIPE_API_KEY",
  STRIPE_CAPTURE:
    "manual: authorize at checkout, capture from the admin; automatic: Stripe charges at once (refunded if checkout fails)",
  STRIPE_API_URL: "Base URL the Stripe SDK is pointed at instead of api.stripe.com (tests, Stripe-compatible gateways)",
  GOOGLE_CLIENT_ID: "Google OAuth client id",
  GOOGLE_CLIENT_SECRET: "Google OAuth client secret",
  GOOGLE_CALLBACK_URL: "Google OAuth callback URL",
  GITHUB_CLIENT_ID: "GitHub OAuth client id",
  GITHUB_CLIENT_SECRET: "GitHub OAuth client secret",
  GITHUB_CALLBACK_URL: "GitHub OAuth callback URL",
  GOOGLE_AUTHORIZE_URL: "Google authorize endpoint (default https://accounts.google.com/o/oauth2/v2/auth)",
  GOOGLE_TOKEN_URL: "Google token endpoint (default https://oauth2.googleapis.com/token)",
  GOOGLE_USERINFO_URL: "Google OpenID userinfo endpoint (default https://openidconnect.googleapis.com/v1/userinfo)",
  GOOGLE_SUCCESS_REDIRECT_URL:
    "Success page: the Google callback answers {location} = this URL with ?auth_token= (unset: {token})",
  GITHUB_AUTHORIZE_URL: "GitHub authorize endpoint (default https://github.com/login/oauth/authorize)",
  GITHUB_TOKEN_URL: "GitHub token endpoint (default https://github.com/login/oauth/access_token)",
  GITHUB_USERINFO_URL: "GitHub user endpoint (default https://api.github.com/user)",
  GITHUB_EMAILS_URL:
    "GitHub emails endpoint, read when the profile has no public email (default https://api.github.com/user/emails)",
  GITHUB_SUCCESS_REDIRECT_URL:
    "Success page: the GitHub callback answers {location} = this URL with ?auth_token= (unset: {token})",
};

/** Every variable with its default (from `EnvSchema`) and description, in schema order. */
export function envTable(): Array<{ name: string; default: string; description: string }> {
  return Object.entries(EnvSchema.properties).map(([name, schema]) => ({
    name,
    default:
      (schema as { default?: unknown }).default === undefined ? "" : String((schema as { default?: unknown }).default),
    description: envDescriptions[name as keyof Env],
  }));
}
