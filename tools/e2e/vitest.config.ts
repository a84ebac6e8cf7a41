import { defineConfig } from "vitest/config";

// The harness's own unit tests (`npm run test:e2e:unit`); the suite itself runs with `npm run test:e2e`.
export default defineConfig({ test: { include: ["tools/e2e/**/*.test.ts"], root: "." } });
