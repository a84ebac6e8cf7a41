// The one list of test projects: one per workspace. The root vitest.config.ts imports it.
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
