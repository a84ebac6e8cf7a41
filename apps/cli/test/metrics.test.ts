import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { randomInt } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { createModules } from "@kasse/modules";
import { createWebhookService } from "@kasse/modules/event";
import { loadBaseConfig } from "@kasse/runtime";
import { kasse, node, startKasse } from "./kasse-process";
import { ok, readyCart, storefront } from "./storefront";

// METRICS_PORT on real processes: an API process and a worker each serve their own metrics on a
// port of their own; a checkout moves the API's request and workflow counters, the worker's
// webhook deliveries; `kasse start --processes 2` serves its children's, summed.

const workerBin = fileURLToPath(new URL("../../worker/bin/kasse-worker.js", import.meta.url));
// A Redis database of its own: this test's queue meets no other test's.
const redisUrl = `${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}/${randomInt(1, 16)}`;
const secret = "metrics-test-secret-metrics-test";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a page in Prometheus' text format. */
function samples(page: string): Sample[] {
  return page
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [, name, labels, value] = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      return {
        name: name!,
        labels: Object.fromEntries([...(labels ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]])),
        value: Number(value),
      };
    });
}

/** The value of the series `name` with exactly `labels`, or undefined when the page has none. */
function valueOf(page: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  return page.find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === wanted.length &&
      wanted.every(([key, value]) => s.labels[key] === value),
  )?.value;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(await res.text());
}

let database: TestDatabase;
let store: DemoStore;
let receiver: Server;
let env: Record<string, string>;

beforeAll(async () => {
  if (!onPostgres() || !process.env.REDIS_URL) return;
  database = await createTestDatabase();
  store = (await seedDemoStore(createModules()))!;
  // A webhook endpoint that takes order.placed, and one that always fails.
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(req.url === "/ok" ? 204 : 500).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as { port: number };
  const webhooks = createWebhookService({ secret, allowPrivate: true });
  for (const path of ["/ok", "/fail"])
    await webhooks.create({ url: `http://127.0.0.1:${port}${path}`, events: ["order.placed"] });
  env = {
    DATABASE_URL: database.url!,
    REDIS_URL: redisUrl,
    JWT_SECRET: secret,
    WEBHOOK_ALLOW_PRIVATE: "true",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    ADMIN_UI: "false",
    METRICS_PORT: "0",
  };
}, 120_000);

afterAll(async () => {
  if (!onPostgres() || !process.env.REDIS_URL) return;
  receiver.close();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${loadBaseConfig(env).redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await database.close();
});

/** Resolves once `condition` holds, polling; rejects after `timeoutMs`. */
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!onPostgres() || !process.env.REDIS_URL)("metrics (METRICS_PORT)", () => {
  it("an API process and a worker each serve theirs, apart from the public port; a checkout moves them", async () => {
    const api = await startKasse(env, ["--no-worker"]);
    let workerMetrics: string | undefined;
    let workerProcess: ChildProcess | undefined;
    const worker = node([workerBin], { ...env, LOG_LEVEL: "info" }, (stdout, child) => {
      workerProcess = child;
      workerMetrics ??= /"url":"([^"]+)","msg":"metrics served"/.exec(stdout)?.[1];
    });
    try {
      const apiMetrics = /Metrics at (http:\/\/\S+)/.exec(api.started)?.[1];
      expect(apiMetrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const call = storefront(api.url, store.publishable_api_key);
      const { products } = await ok<{ products: Array<{ variants: Array<{ id: string }> }> }>(
        call("GET", `/store/products?limit=1&region_id=${store.region_ids.eu}`),
      );
      const cartId = await readyCart(call, store.region_ids.eu, [products[0]!.variants[0]!.id]);
      const completed = await ok<{ type: string }>(call("POST", `/store/carts/${cartId}/complete`));
      expect(completed.type).toBe("order");
      expect((await fetch(`${api.url}/no/such/route`)).status).toBe(404);
      // The public port has none.
      expect((await fetch(`${api.url}/metrics`)).status).toBe(404);

      const page = await scrape(apiMetrics!);
      const requests = (method: string, route: string, status: string) =>
        valueOf(page, "kasse_http_requests_total", { method, route, status });
      expect(requests("POST", "/store/carts", "200")).toBe(1);
      expect(requests("POST", "/store/carts/:id/line-items", "200")).toBe(1);
      expect(requests("POST", "/store/payment-collections/:id/payment-sessions", "200")).toBe(1);
      expect(requests("POST", "/store/carts/:id/complete", "200")).toBe(1);
      // Unknown URLs are one series, whatever they are; /metrics on the public port is one of them.
      expect(requests("GET", "unmatched", "404")).toBe(2);
      const latency = { method: "POST", route: "/store/carts/:id/complete" };
      expect(valueOf(page, "kasse_http_request_duration_seconds_count", latency)).toBe(1);
      expect(valueOf(page, "kasse_http_request_duration_seconds_sum", latency)).toBeGreaterThan(0);
      expect(valueOf(page, "kasse_http_request_duration_seconds_bucket", { ...latency, le: "+Inf" })).toBe(1);
      // The checkout's saga ran in the API process.
      const checkout = { workflow: "complete-cart" };
      expect(valueOf(page, "kasse_workflow_executions_started_total", checkout)).toBe(1);
      expect(valueOf(page, "kasse_workflow_executions_finished_total", { ...checkout, outcome: "succeeded" })).toBe(1);
      expect(valueOf(page, "kasse_workflow_executions_running", checkout)).toBe(0);
      // Read at the scrape: the pool, the queue, the outbox, the mail.
      expect(valueOf(page, "kasse_db_pool_size")).toBe(10);
      expect(valueOf(page, "kasse_db_pool_connections_in_use")).toBeGreaterThanOrEqual(0);
      expect(valueOf(page, "kasse_db_pool_waiting")).toBe(0);
      expect(valueOf(page, "kasse_queue_jobs", { queue: "workflows", state: "failed" })).toBe(0);
      expect(valueOf(page, "kasse_outbox_oldest_event_age_seconds")).toBeGreaterThanOrEqual(0);
      expect(valueOf(page, "kasse_notifications_pending")).toBeGreaterThanOrEqual(0);
      expect(valueOf(page, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
      expect(valueOf(page, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
      expect(page.some((s) => s.name === "kasse_metrics_collect_errors_total")).toBe(false);

      // The worker delivered order.placed: to the endpoint that answers, and a failure (retried later) to the other.
      let deliveries: Sample[] = [];
      await waitFor(async () => {
        if (!workerMetrics) return false;
        deliveries = (await scrape(workerMetrics)).filter((s) => s.name === "kasse_webhook_deliveries_total");
        return deliveries.length >= 2;
      }, 15_000);
      expect(valueOf(deliveries, "kasse_webhook_deliveries_total", { outcome: "succeeded" })).toBe(1);
      expect(valueOf(deliveries, "kasse_webhook_deliveries_total", { outcome: "failed" })).toBeGreaterThanOrEqual(1);
      // Every process counts what it did: the API process (--no-worker) delivered none.
      const later = await scrape(apiMetrics!);
      expect(later.some((s) => s.name === "kasse_webhook_deliveries_total")).toBe(false);
      expect(valueOf(later, "kasse_outbox_oldest_event_age_seconds")).toBe(0);
    } finally {
      await api.stop();
      workerProcess?.kill("SIGTERM");
      await worker;
    }
  }, 60_000);

  it("kasse start --processes 2 serves its children's, summed; a busy metrics port stops a start in one line", async () => {
    let metricsUrl: string | undefined;
    let url: string | undefined;
    let primary: ChildProcess | undefined;
    let listening = 0;
    const cluster = kasse(
      ["start", "--processes", "2", "--no-worker"],
      { ...env, PORT: "0", HOST: "127.0.0.1" },
      (stdout, child) => {
        primary = child;
        metricsUrl ??= /Metrics of the 2 processes at (\S+)/.exec(stdout)?.[1];
        url ??= /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
        listening = (stdout.match(/listening on/g) ?? []).length;
      },
    );
    try {
      await waitFor(() => listening === 2 && metricsUrl !== undefined, 30_000);
      for (let i = 0; i < 10; i++) expect((await fetch(`${url}/health`)).status).toBe(200);
      const page = await scrape(metricsUrl!);
      expect(valueOf(page, "kasse_http_requests_total", { method: "GET", route: "/health", status: "200" })).toBe(10);
      expect(valueOf(page, "kasse_db_pool_size")).toBe(20);

      const busy = await kasse(["start"], {
        ...env,
        PORT: "0",
        HOST: "127.0.0.1",
        METRICS_PORT: new URL(metricsUrl!).port,
      });
      expect(busy.code).toBe(1);
      expect(busy.stderr.trim()).toBe(
        `Cannot serve metrics: port ${new URL(metricsUrl!).port} on 127.0.0.1 is in use; give each process its own METRICS_PORT, or stop the process that listens there.`,
      );
    } finally {
      primary?.kill("SIGTERM");
      expect((await cluster).code).toBe(0);
    }
  }, 60_000);
});
