// What every Kasse process (the API, the worker, the CLI) runs on: its configuration, its logger,
// its database and Redis connections, and its one saga engine.
export { loadConfig, loadBaseConfig, EnvSchema, ConfigError, type Config, type BaseConfig, type Env } from "./config";
export { createLogger, loggerOptions, stripQueryStrings, type KasseLoggerOptions } from "./logger";
export { createInfrastructure, type Infrastructure } from "./infra";
export { openDatabase } from "./database";
export { openRedis, type RedisConnection } from "./redis";
export {
  createWorkflowRuntime,
  modulesOptions,
  workerEvents,
  type WorkflowRuntime,
  type WorkflowRuntimeOptions,
} from "./workflows";
export { publishEventReleases, subscribeEventReleases } from "./event-wake";
export { createProcessMetrics, clusterMetrics, type ProcessMetrics, type MetricsSources } from "./metrics";
export { serveMetrics } from "./metrics-server";
