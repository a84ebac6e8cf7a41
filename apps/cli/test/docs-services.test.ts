import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { onPostgres } from "@kasse/db/testing";

// docs/operations.md's services sequence runs here as an operator runs it on a fresh machine:
// the block under its marker, with the role and database named for this test, the test's
// PostgreSQL, Redis and a free port in place of the defaults.

const root = fileURLToPath(new URL("../../..", import.meta.url));
const marker = "<!-- tested: services";

/** The fenced block after the marker in docs/operations.md. */
function servicesBlock(): string {
  const page = readFileSync(`${root}/docs/operations.md`, "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(page.indexOf(marker)));
  if (page.indexOf(marker) < 0 || !block) throw new Error("docs/operations.md has no tested services block");
  return block[1]!;
}

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * Runs a bash script in its own process group and resolves with its exit code and output once the
 * script is done: then the group gets SIGTERM, which stops the server the script started in the
 * background gracefully (bash without job control keeps it in its group).
 */
function bash(script: string, env: Record<string, string>, timeoutMs = 60_000) {
  const child = spawn("bash", ["-c", script], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is gone already.
    }
  };
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => signal("SIGKILL"), timeoutMs);
  let code: number | null = null;
  child.on("exit", (exitCode) => {
    code = exitCode;
    signal("SIGTERM");
  });
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("close", () => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

const server = onPostgres() ? new URL(process.env.DATABASE_URL!) : undefined;
const name = `kasse_docs_${randomBytes(4).toString("hex")}`;
const superuser = {
  PGHOST: server?.hostname ?? "",
  PGPORT: server?.port || "5432",
  PGUSER: decodeURIComponent(server?.username ?? ""),
  PGPASSWORD: decodeURIComponent(server?.password ?? ""),
  PGDATABASE: server?.pathname.slice(1) ?? "",
};
afterAll(async () => {
  if (!server) return;
  const sql = `DROP DATABASE IF EXISTS ${name} WITH (FORCE); DROP ROLE IF EXISTS ${name};`;
  await bash(`psql -v ON_ERROR_STOP=1 -q -c "${sql}"`, { PATH: process.env.PATH ?? "", ...superuser });
});

it.skipIf(!server)(
  "the services sequence of docs/operations.md runs on a fresh database: role, database, migrate, user, seed, start, check",
  async () => {
    const port = await freePort();
    const ownName = (text: string) => text.replace(/(?<![\w-])kasse(?![\w-])/g, name);
    let script = servicesBlock()
      .split("\n")
      .map((line) => (line.startsWith("psql") || line.includes("DATABASE_URL=") ? ownName(line) : line))
      .join("\n");
    const substitutions: Array<[string, string]> = [
      ["localhost:5432", `${superuser.PGHOST}:${superuser.PGPORT}`],
      ["redis://localhost:6379", process.env.REDIS_URL ?? "redis://127.0.0.1:6379"],
      ["localhost:9000", `127.0.0.1:${port}`],
    ];
    for (const [from, to] of substitutions) {
      expect(script, `the block names ${from}`).toContain(from);
      script = script.replaceAll(from, to);
    }
    const { code, output } = await bash(
      `set -euo pipefail\n${script}`,
      {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...superuser,
        PORT: String(port),
        HOST: "127.0.0.1",
        ADMIN_UI: "false",
        LOG_LEVEL: "warn",
      },
      200_000,
    );
    expect(code, output).toBe(0);
    expect(output).toContain("Migrations applied (PostgreSQL).");
    expect(output).toMatch(/Created admin user ops@example\.com \(user_/);
    expect(output).toMatch(/Publishable API key \(x-publishable-api-key\): pk_/);
    expect(output).toMatch(/Kasse listening on http:\/\/127\.0\.0\.1:\d+ \(services, with worker\)/);
    expect(output).toContain('"status":"ok"');
    expect(output).toMatch(/^ok /m);
    expect(output).not.toMatch(/^FAIL/m);
  },
  240_000,
);
