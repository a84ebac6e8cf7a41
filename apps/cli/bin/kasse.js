#!/usr/bin/env node
// The `kasse` command: runs the compiled program (apps/cli/dist, `npm run build`). In a checkout
// it is compiled first when missing or older than the sources (tools/build.mjs), so an edit
// takes effect on the next run; tsx is for development and tests only.
import { existsSync } from "node:fs";

const builder = new URL("../../../tools/build.mjs", import.meta.url);
if (existsSync(builder)) await (await import(builder.href)).ensureBuilt("cli");
// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import("../dist/main.js");
