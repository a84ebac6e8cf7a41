import { defineConfig } from "drizzle-kit";

// One ordered migration history for every module's tables. `npm run db:generate` after a schema change.
export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./packages/workflows/src/**/schema.ts",
    "./packages/modules/src/*/schema.ts",
    "./packages/db/src/schema.ts",
  ],
  out: "./drizzle",
});
