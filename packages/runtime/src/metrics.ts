import cluster from "node:cluster";
import { withTimeout, type Database } from "@kasse/db";
import type { DeliveryOutcome } from "@kasse/modules/event";
import type { BullMqScheduler, EngineObserver, Scheduler } from "@kasse/workflows";

/** What the gauges read when Prometheus scrapes (nothing polls them in between). */
export interface MetricsSources {
  database: Pick<Database, "poolUsage">;
  scheduler: Scheduler;
  /** Seconds the oldest event still to be delivered has waited (the event module's outbox). */
  outboxAge(): Promise<number>;
  /** Messages waiting for delivery (the notification module). */
  notificationsPending(): Promise<number>;
}

/** A body in Prometheus' text format, and its content type. */
export interface MetricsRenderer {
  contentType: string;
  render(): Promise<string>;
}

/**
 * A process's metrics (`METRICS_PORT`): its HTTP requests, its engine's executions, its webhook
 * deliveries, what it runs on (read at scrape time) and Node's own (`collectDefaultMetrics`).
 * Every process counts what it did; `kasse start --processes N` sums its children's.
 */
export interface ProcessMetrics extends MetricsRenderer {
  /** Told by the engine: executions started, finished by outcome and running; step retries. */
  engine: EngineObserver;
  /** One answered request: its route's template (undefined when no route matched), its status, how long it took. */
  request(method: string, route: string | undefined, status: number, ms: number): void;
  /** One webhook delivery attempt's outcome, as the dispatcher recorded it. */
  webhookDelivery(outcome: DeliveryOutcome): void;
  /** Reads the scrape-time gauges from `sources` from now on. */
  watch(sources: MetricsSources): void;
}

/** The `route` of a request no route matched: one series for every unknown URL. */
const UNMATCHED_ROUTE = "unmatched";

/** How long a scrape waits for a gauge read from the database or Redis before it reports NaN. */
const COLLECT_TIMEOUT_MS = 2_000;

/** BullMQ's job states a queue depth is reported for. */
const QUEUE_STATES = ["waiting", "active", "delayed", "failed"] as const;

/**
 * Creates the process's metrics over a registry of its own (prom-client is loaded here, only by a
 * process that serves metrics). In a child of `kasse start --processes N` the registry is the one
 * the primary's aggregation asks for.
 * @example
 * const metrics = config.metrics ? await createProcessMetrics() : undefined;
 * const infra = await createInfrastructure(config, { metrics });
 */
export async function createProcessMetrics(): Promise<ProcessMetrics> {
  const { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } =
    await import("prom-client");
  const registry = new Registry();
  if (cluster.isWorker) {
    // An aggregator made in a child is what answers the primary's requests (prom-client adds its listener then).
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });

  const requests = counter(
    "kasse_http_requests_total",
    "HTTP requests answered, by method, route template and status",
    ["method", "route", "status"],
  );
  const durations = new Histogram({
    name: "kasse_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by method and route template",
    labelNames: ["method", "route"] as const,
    registers,
  });
  const started = counter("kasse_workflow_executions_started_total", "Workflow executions recorded by this process", [
    "workflow",
  ]);
  const finished = counter(
    "kasse_workflow_executions_finished_total",
    "Runs of workflow executions in this process that ended them: succeeded, compensated, failed or compensation_failed (retried in the background)",
    ["workflow", "outcome"],
  );
  const running = new Gauge({
    name: "kasse_workflow_executions_running",
    help: "Workflow executions running in this process",
    labelNames: ["workflow"] as const,
    registers,
  });
  const retries = counter(
    "kasse_workflow_step_retries_total",
    "Step attempts that failed with a retryable error and were tried again",
    ["workflow", "step"],
  );
  const deliveries = counter(
    "kasse_webhook_deliveries_total",
    "Webhook delivery attempts by outcome: succeeded, failed (a retry is scheduled), abandoned (none is left)",
    ["outcome"],
  );
  let sources: MetricsSources | undefined;
  /** The reads of the scrape under way (see `collectErrors`). */
  const reading = new Set<Promise<void>>();

  /**
   * A gauge read at scrape time: at most one read in flight (a database that hangs gets no pile of
   * queries), awaited at most COLLECT_TIMEOUT_MS; a failed read reports NaN and is counted.
   */
  const atScrape = (name: string, read: (from: MetricsSources) => Promise<void>, failed: () => void) => {
    let pending: Promise<void> | undefined;
    return () => {
      if (!sources) return;
      const from = sources;
      pending ??= read(from).finally(() => (pending = undefined));
      const done = withTimeout(
        pending,
        COLLECT_TIMEOUT_MS,
        () => new Error(`${name}: no answer within ${COLLECT_TIMEOUT_MS} ms`),
      ).catch(() => {
        collectErrors.inc({ collector: name });
        failed();
      });
      reading.add(done);
      return done.finally(() => reading.delete(done));
    };
  };

  // Every child of a cluster reads the same database and queue: the aggregate takes one value, not their sum.
  const backlog = (name: string, help: string, collector: string, read: (from: MetricsSources) => Promise<number>) => {
    const gauge: InstanceType<typeof Gauge> = new Gauge({
      name,
      help,
      aggregator: "max",
      registers,
      collect: atScrape(
        collector,
        async (from) => gauge.set(await read(from)),
        () => gauge.set(Number.NaN),
      ),
    });
  };
  backlog(
    "kasse_outbox_oldest_event_age_seconds",
    "How long the oldest event still to be delivered has waited (0: none waits)",
    "outbox",
    (from) => from.outboxAge(),
  );
  backlog("kasse_notifications_pending", "Notifications (emails) waiting for delivery", "notifications", (from) =>
    from.notificationsPending(),
  );
  const queueJobs: InstanceType<typeof Gauge<"queue" | "state">> = new Gauge({
    name: "kasse_queue_jobs",
    help: "Jobs in a BullMQ queue by state (services mode)",
    labelNames: ["queue", "state"] as const,
    aggregator: "max",
    registers,
    collect: atScrape(
      "queue",
      async (from) => {
        if (from.scheduler.kind !== "bullmq") return;
        const queue = (from.scheduler as BullMqScheduler).queue;
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) queueJobs.set({ queue: queue.name, state }, counts[state] ?? 0);
      },
      () => {
        if (sources?.scheduler.kind !== "bullmq") return;
        const name = (sources.scheduler as BullMqScheduler).queue.name;
        for (const state of QUEUE_STATES) queueJobs.set({ queue: name, state }, Number.NaN);
      },
    ),
  });
  // Registered after the gauges it counts for: a scrape collects in that order, so it waits for their reads and shows this scrape's failures.
  const collectErrors: InstanceType<typeof Counter<"collector">> = new Counter({
    name: "kasse_metrics_collect_errors_total",
    help: "Scrapes whose read of a gauge failed or took over 2 s (the gauge then reports NaN)",
    labelNames: ["collector"] as const,
    registers,
    collect: async () => {
      await Promise.all(reading);
    },
  });
  // The pool's figures are counters in this process: read, not queried.
  const poolGauges: string[] = [];
  const pool = (name: string, help: string, field: "size" | "inUse" | "waiting") => {
    poolGauges.push(name);
    const gauge: InstanceType<typeof Gauge> = new Gauge({
      name,
      help,
      registers,
      collect: () => {
        const usage = sources?.database.poolUsage?.();
        if (usage) gauge.set(usage[field]);
      },
    });
  };
  pool("kasse_db_pool_size", "PostgreSQL connections this process may open", "size");
  pool("kasse_db_pool_connections_in_use", "PostgreSQL connections taken by a statement or a transaction", "inUse");
  pool("kasse_db_pool_waiting", "Statements and transactions waiting for a connection of their own", "waiting");

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    engine: {
      started: (workflow) => started.inc({ workflow }),
      running: (workflow, change) => running.inc({ workflow }, change),
      finished: (workflow, outcome) => finished.inc({ workflow, outcome }),
      stepRetried: (workflow, step) => retries.inc({ workflow, step }),
    },
    // About a microsecond a request (prom-client hashes the labels of each call).
    request(method, route = UNMATCHED_ROUTE, status, ms) {
      requests.inc({ method, route, status });
      durations.observe({ method, route }, ms / 1000);
    },
    webhookDelivery: (outcome) => deliveries.inc({ outcome }),
    watch(from) {
      sources = from;
      // PGlite (embedded) has no pool: no series rather than a pool of 0.
      if (!from.database.poolUsage) for (const name of poolGauges) registry.removeSingleMetric(name);
    },
  };
}

/**
 * The metrics of `kasse start --processes N`'s primary: its children's, asked for over the cluster's
 * channel at each scrape and summed (the gauges read from the database and Redis: their largest).
 */
export async function clusterMetrics(): Promise<MetricsRenderer> {
  const { AggregatorRegistry } = await import("prom-client");
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, render: () => aggregator.clusterMetrics() };
}
