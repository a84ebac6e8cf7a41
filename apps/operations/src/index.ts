// What `kasse seed` and `kasse check` run, beside the CLI: the CLI, the API's tests and the soak use
// them, so they live in a workspace of their own (the CLI imports the API, which cannot import the CLI).
export { seedDemoStore, type DemoStore, type SeedOptions } from "./seed-demo-store";
export { checkInvariants, type CheckResult } from "./check";
