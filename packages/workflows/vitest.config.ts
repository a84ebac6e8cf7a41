import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "workflows",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    isolate: false,
    hookTimeout: 60_000,
  },
});
