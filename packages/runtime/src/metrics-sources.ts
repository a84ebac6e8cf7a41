import type { Database } from "@kasse/db";
import { createModules, type ModulesOptions } from "@kasse/modules";
import type { Scheduler } from "@kasse/workflows";
import type { MetricsSources } from "./metrics";

/**
 * What a process's scrape-time gauges read: its pool, its queue, and the outbox and notification
 * backlogs through their modules (each service is built on its first scrape, with the process's configuration).
 */
export function metricsSources(database: Database, scheduler: Scheduler, options: ModulesOptions): MetricsSources {
  const modules = createModules(database.db, options);
  return {
    database,
    scheduler,
    outboxAge: () => modules.events.oldestWaitingAge(),
    notificationsPending: () => modules.notification.pendingCount(),
  };
}
