// The one list of test projects: one per workspace with tests (apps/operations has none of its own: the
// API's tests run the seed and the check). The root vitest.config.ts imports it.
export const projects = [
  "packages/core",
  "packages/db",
  "packages/workflows",
  "packages/modules",
  "packages/flows",
  "packages/runtime",
  "apps/api",
  "apps/admin",
  "apps/worker",
  "apps/cli",
];
