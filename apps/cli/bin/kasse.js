#!/usr/bin/env node
// The `kasse` command: runs the TypeScript sources directly through tsx (no build step).
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
