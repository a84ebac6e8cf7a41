export { startWorker, type StartWorkerOptions, type RunningWorker } from "./worker";
export { maintenanceJobs, RECOVERY_EVERY_MS } from "./maintenance";
