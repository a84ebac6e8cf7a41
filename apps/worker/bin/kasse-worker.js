#!/usr/bin/env node
// A dedicated worker process (services mode: DATABASE_URL and REDIS_URL set): runs the compiled
// program (apps/worker/dist, `npm run build`), compiled first in a checkout whose sources changed.
import { existsSync } from "node:fs";

const builder = new URL("../../../tools/build.mjs", import.meta.url);
if (existsSync(builder)) await (await import(builder.href)).ensureBuilt("worker");
process.setSourceMapsEnabled(true);
await import("../dist/main.js");
