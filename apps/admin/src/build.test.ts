import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adminBuildState, buildAdmin } from "./build";
import { adminDir, buildInputs, distDir, lockClosure, normalizeBackendPath, scratchDir } from "./inputs";

// Each test uses a backend path of its own, so its build folder (apps/admin/dist/<hash>) is its alone.
const uniquePath = () => `/test-${randomUUID().slice(0, 8)}`;
const made: string[] = [];
afterEach(() => made.splice(0).forEach((path) => rmSync(path, { recursive: true, force: true })));

/** Puts a finished build where Kasse looks for it, as the bundler would leave it. */
function fakeBuild(backendPath: string, withStamp = true): string {
  const { dir, inputs } = adminBuildState({ backendPath });
  made.push(dir);
  mkdirSync(join(dir, "assets"), { recursive: true });
  writeFileSync(join(dir, "index.html"), "<!doctype html>");
  if (withStamp) writeFileSync(join(dir, "kasse-build.json"), JSON.stringify(inputs));
  return dir;
}

describe("build inputs", () => {
  it("normalizes the backend path", () => {
    expect(["/medusa", "/medusa/", "medusa", " /medusa// "].map(normalizeBackendPath)).toEqual([
      "/medusa",
      "/medusa",
      "/medusa",
      "/medusa",
    ]);
    expect(["/", "", "//"].map(normalizeBackendPath)).toEqual(["/", "/", "/"]);
  });

  it("hash the pinned versions and the backend path: the same inputs, the same folder", () => {
    const medusa = buildInputs({ backendPath: "/medusa" });
    expect(medusa).toMatchObject({
      dashboard: "2.21.2",
      bundler: "2.21.2",
      backendPath: "/medusa",
      base: "/app",
      authType: "jwt",
    });
    expect(buildInputs({ backendPath: "/medusa/" }).hash).toBe(medusa.hash);
    expect(buildInputs({ backendPath: "/" }).hash).not.toBe(medusa.hash);
    expect(medusa.hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("take from the lockfile exactly the packages the admin pulls in, resolved as Node does", () => {
    const lock = {
      packages: {
        "": { dependencies: { fastify: "5" } },
        "apps/admin": { dependencies: { bundler: "1" } },
        "node_modules/bundler": { version: "1.0.0", integrity: "sha-b", dependencies: { vite: "7", shared: "1" } },
        "node_modules/bundler/node_modules/vite": {
          version: "7.0.0",
          integrity: "sha-v7",
          dependencies: { shared: "2" },
        },
        "node_modules/bundler/node_modules/vite/node_modules/shared": { version: "2.0.0" },
        "node_modules/shared": { version: "1.0.0" },
        "node_modules/vite": { version: "6.0.0" },
        "node_modules/fastify": { version: "5.0.0" },
      },
    };
    expect(lockClosure(lock)).toEqual([
      "node_modules/bundler@1.0.0:sha-b",
      "node_modules/bundler/node_modules/vite@7.0.0:sha-v7",
      "node_modules/bundler/node_modules/vite/node_modules/shared@2.0.0:",
      "node_modules/shared@1.0.0:",
    ]);
  });

  it("cover the dashboard's tree in the real lockfile and nothing of the API's", () => {
    const lock = JSON.parse(readFileSync(join(adminDir, "../../package-lock.json"), "utf8"));
    const closure = lockClosure(lock).map((line) => line.split("@").slice(0, -1).join("@"));
    expect(closure).toEqual(
      expect.arrayContaining([
        "node_modules/@medusajs/dashboard",
        "node_modules/@medusajs/admin-bundler",
        "node_modules/vite",
        "node_modules/react",
      ]),
    );
    expect(closure).not.toContain("node_modules/fastify");
    expect(closure).not.toContain("node_modules/drizzle-orm");
  });
});

describe("buildAdmin", () => {
  it("reuses a finished build for the same inputs without building", async () => {
    const backendPath = uniquePath();
    expect(adminBuildState({ backendPath }).ready).toBe(false);
    const dir = fakeBuild(backendPath);
    expect(adminBuildState({ backendPath })).toMatchObject({ dir, ready: true });
    expect(await buildAdmin({ backendPath })).toEqual({ dir, built: false, ms: 0 });
  });

  it("does not count a folder without its stamp (an interrupted copy) as built", () => {
    const backendPath = uniquePath();
    fakeBuild(backendPath, false);
    expect(adminBuildState({ backendPath }).ready).toBe(false);
  });

  it("waits for the build another live process is making instead of building twice", async () => {
    const backendPath = uniquePath();
    const { inputs } = adminBuildState({ backendPath });
    const other = spawn("sleep", ["30"]);
    const lock = join(distDir, `${inputs.hash}.lock`);
    mkdirSync(distDir, { recursive: true });
    writeFileSync(lock, String(other.pid));
    made.push(lock);
    try {
      const waiting = buildAdmin({ backendPath });
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(existsSync(join(scratchDir, `${inputs.hash}-${process.pid}`))).toBe(false);
      const dir = fakeBuild(backendPath);
      expect(await waiting).toMatchObject({ dir, built: false });
    } finally {
      other.kill();
    }
  });
});
