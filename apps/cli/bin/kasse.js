#!/usr/bin/env node
// The `kasse` command: runs the compiled program (apps/cli/dist, `npm run build`). In a checkout
// it is compiled first when missing or older than the sources (tools/build.mjs), so an edit
// takes effect on the next run; tsx is for development and tests only.
import { existsSync } from "node:fs";

const builder = new URL("../../../tools/build.mjs", import.meta.url);
if (existsSync(builder)) await (await import(builder.href)).ensureBuilt("cli");
// `kasse start` in services mode runs with Kasse's V8 heap options however it was started: started
// without them, it runs again as a child with them (packages/runtime/src/node-flags.ts).
const { relaunchWithServerFlags } = await import("../dist/node-flags.js");
// Source maps lie beside the build; NODE_OPTIONS=--enable-source-maps makes stack traces name the
// TypeScript sources (off by default: Node then reads the maps of every package it loads, 0.2 s of a start).
if (!relaunchWithServerFlags(process.argv.slice(2).includes("start"))) await import("../dist/main.js");
