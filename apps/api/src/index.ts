export { buildApp, type App, type BuildAppOptions } from "./app";
export { loggerOptions, stripQueryStrings, type KasseLoggerOptions } from "./logger";
export { loadConfig, loadBaseConfig, publicUrlOf, EnvSchema, ConfigError, type Config, type BaseConfig, type Env } from "./config";
export { createContainer, type Container, type Infrastructure } from "./container";
export { createInfrastructure } from "./infra";
export { createWorkflowRuntime, type WorkflowRuntime } from "./workflows";
export { startServer, handleSignals, type RunningServer, type StartServerOptions, type Stoppable } from "./server";
