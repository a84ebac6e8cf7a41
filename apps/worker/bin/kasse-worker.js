#!/usr/bin/env node
// A dedicated worker process (services mode: DATABASE_URL and REDIS_URL set): runs the compiled
// program (apps/worker/dist, `npm run build`), compiled first in a checkout whose sources changed.
import { existsSync } from "node:fs";

const builder = new URL("../../../tools/build.mjs", import.meta.url);
if (existsSync(builder)) await (await import(builder.href)).ensureBuilt("worker");
// The worker runs with Kasse's V8 heap options however it was started: started without them, it
// runs again as a child with them (packages/runtime/src/node-flags.ts).
const { relaunchWithServerFlags } = await import("../dist/node-flags.js");
// Source maps lie beside the build; NODE_OPTIONS=--enable-source-maps makes stack traces name the
// TypeScript sources (off by default: Node then reads the maps of every package it loads, 0.2 s of a start).
if (!relaunchWithServerFlags(true)) await import("../dist/main.js");
