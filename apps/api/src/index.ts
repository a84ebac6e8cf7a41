export { buildApp, type App, type BuildAppOptions } from "./app";
export { createLogger, loggerOptions, stripQueryStrings, type KasseLoggerOptions } from "./logger";
export { loadConfig, loadBaseConfig, EnvSchema, ConfigError, type Config, type BaseConfig, type Env } from "./config";
export { createContainer, type Container, type Infrastructure } from "./container";
export { createInfrastructure } from "./infra";
export { createWorkflowRuntime, type WorkflowRuntime, type WorkflowRuntimeOptions } from "./workflows";
export { startServer, handleSignals, type RunningServer, type StartServerOptions, type Stoppable } from "./server";
