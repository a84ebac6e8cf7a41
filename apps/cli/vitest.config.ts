import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    isolate: false,
    hookTimeout: 60_000,
  },
});
