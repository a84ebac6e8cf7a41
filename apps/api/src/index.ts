export { buildApp, type App, type BuildAppOptions } from "./app";
export { startServer, handleSignals, type RunningServer, type StartServerOptions, type Stoppable } from "./server";
export { demoPicture } from "./plugins/static-files";
