import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { kasse, node } from "./kasse-process";

const manifest = fileURLToPath(new URL("../dist/build.json", import.meta.url));

describe("the kasse launcher", () => {
  it("compiles a stale build before it runs, and only the program it runs", async () => {
    const worker = fileURLToPath(new URL("../../worker/dist/build.json", import.meta.url));
    const workerBefore = readFileSync(worker, "utf8");
    const built = JSON.parse(readFileSync(manifest, "utf8")) as { started_at: number };
    // Older than every source: the launcher finds the build stale, as after an edit or a pull.
    writeFileSync(manifest, JSON.stringify({ ...built, started_at: 0 }));
    const before = Date.now();
    const help = await kasse(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: kasse <command>");
    expect((JSON.parse(readFileSync(manifest, "utf8")) as { started_at: number }).started_at).toBeGreaterThanOrEqual(
      before,
    );
    expect(readFileSync(worker, "utf8")).toBe(workerBefore);
  });

  it("leaves the compiler out of the process it launches (its heap stayed resident for the server's life)", async () => {
    const built = JSON.parse(readFileSync(manifest, "utf8")) as { started_at: number };
    writeFileSync(manifest, JSON.stringify({ ...built, started_at: 0 }));
    const script = [
      'import { createRequire } from "node:module";',
      'const { ensureBuilt, staleReason } = await import("./tools/build.mjs");',
      'await ensureBuilt("cli");',
      "const loaded = Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes('esbuild'));",
      "console.log(JSON.stringify({ stale: staleReason('cli'), loaded }));",
    ].join("\n");
    const run = await node(["--input-type=module", "-e", script]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ stale: null, loaded: [] });
  });
});
