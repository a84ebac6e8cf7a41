export { buildApp, type App, type BuildAppOptions } from "./app";
export { createContainer, type Container } from "./container";
export { startServer, handleSignals, type RunningServer, type StartServerOptions, type Stoppable } from "./server";
