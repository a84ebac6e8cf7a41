export { startWorker, type StartWorkerOptions, type RunningWorker, type WorkerEventsOptions } from "./worker";
export { maintenanceJobs, RECOVERY_EVERY_MS } from "./maintenance";
