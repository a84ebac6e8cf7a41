import type { Database } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import type { Scheduler } from "@kasse/workflows";
import type { MetricsSources } from "./metrics";

/**
 * What a process's scrape-time gauges read: its pool, its queue, and the outbox and notification
 * backlogs through the process's modules.
 */
export function metricsSources(database: Database, scheduler: Scheduler, modules: Modules): MetricsSources {
  return {
    database,
    scheduler,
    outboxAge: () => modules.events.oldestWaitingAge(),
    notificationsPending: () => modules.notification.pendingCount(),
  };
}
