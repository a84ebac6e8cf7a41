// The one list of test projects: one per workspace with tests (apps/operations has none of its own: the
// API's tests run the seed and the check). The root vitest.config.ts imports it.
// Each project's config sets `isolate: false`: the files a worker runs share its imported modules, so
// the app is imported once per worker rather than once per file (half the suite's time). That holds
// while no test mocks a module or changes process.env, and every file closes what it opens.
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
