export { startWorker, type StartWorkerOptions, type RunningWorker, type WorkerEventsOptions } from "./worker";
export { maintenanceJobs } from "./maintenance";
