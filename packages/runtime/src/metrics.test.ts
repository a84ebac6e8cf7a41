import { describe, expect, it } from "vitest";
import { createInProcessScheduler } from "@kasse/workflows";
import { createProcessMetrics } from "./metrics";

describe("a process's metrics", () => {
  it("count requests by route template, every unknown URL in one series", async () => {
    const metrics = await createProcessMetrics();
    metrics.request("GET", "/store/products/:id", 200, 12);
    metrics.request("GET", "/store/products/:id", 200, 30);
    metrics.request("GET", undefined, 404, 1);
    metrics.request("POST", undefined, 404, 1);
    const page = await metrics.render();
    expect(page).toContain('kasse_http_requests_total{method="GET",route="/store/products/:id",status="200"} 2');
    expect(page).toContain('kasse_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    const sum = /^kasse_http_request_duration_seconds_sum\{method="GET",route="\/store\/products\/:id"\} (\S+)$/m.exec(
      page,
    );
    expect(Number(sum?.[1])).toBeCloseTo(0.042);
    expect(page).toContain(
      'kasse_http_request_duration_seconds_bucket{le="0.025",method="GET",route="/store/products/:id"} 1',
    );
  });

  it("read their gauges at the scrape: a read that fails or hangs reports NaN and is counted, one read at a time", async () => {
    const metrics = await createProcessMetrics();
    let reads = 0;
    metrics.watch({
      database: {}, // PGlite: no pool
      scheduler: createInProcessScheduler(),
      outboxAge: async () => 42,
      notificationsPending: () => {
        reads++;
        return new Promise<number>(() => {}); // a database that never answers
      },
    });
    const first = await metrics.render();
    expect(first).toContain("kasse_outbox_oldest_event_age_seconds 42");
    expect(first).toMatch(/^kasse_notifications_pending nan$/im); // prom-client writes Nan; Prometheus reads any case
    expect(first).toContain('kasse_metrics_collect_errors_total{collector="notifications"} 1');
    // No series rather than a pool of 0 connections.
    expect(first).not.toContain("kasse_db_pool");
    const second = await metrics.render();
    expect(second).toContain('kasse_metrics_collect_errors_total{collector="notifications"} 2');
    expect(reads).toBe(1);
  }, 10_000);
});
