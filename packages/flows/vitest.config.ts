import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "flows",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["./test/setup-events.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
