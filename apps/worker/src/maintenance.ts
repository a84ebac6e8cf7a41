import { purgeExpiredIdempotencyKeys, type Db } from "@kasse/db";
import type { Engine, MaintenanceJob } from "@kasse/workflows";

/** How often the recovery sweep looks for executions whose process died or whose retry is due. */
const RECOVERY_EVERY_MS = 2_000;

/**
 * The worker's repeatable maintenance jobs. Add a job here; the scheduler (BullMQ job schedulers,
 * or timers in embedded mode) runs each one every `everyMs`, on one worker at a time with BullMQ.
 */
export function maintenanceJobs(deps: { db: Db; engine: Engine; recoveryEveryMs?: number }): MaintenanceJob[] {
  return [
    { name: "workflow-recovery", everyMs: deps.recoveryEveryMs ?? RECOVERY_EVERY_MS, run: () => deps.engine.recover() },
    { name: "purge-idempotency-keys", everyMs: 60 * 60_000, run: () => purgeExpiredIdempotencyKeys(deps.db) },
  ];
}
