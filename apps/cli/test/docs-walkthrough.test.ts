import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { kasse as runKasse, startKasse, type RunningKasse } from "./kasse-process";

// docs/checkout.md's walkthrough is a script; it runs here as a reader runs it, against a fresh
// `kasse start` with the demo store, and the page must show the script as it is. On PostgreSQL
// the store is a cloned, migrated test database seeded with `kasse seed` (robust on a loaded
// machine: no PGlite initdb); without it, a new embedded data dir as `npm start` makes it.

const root = fileURLToPath(new URL("../../..", import.meta.url));
const script = join(root, "docs/checkout-walkthrough.sh");
const dataDir = mkdtempSync(join(tmpdir(), "kasse-walkthrough-"));
let kasse: RunningKasse | undefined;
let database: TestDatabase | undefined;
afterAll(async () => {
  await kasse?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it("docs/checkout.md shows the walkthrough script as it is", () => {
  const page = readFileSync(join(root, "docs/checkout.md"), "utf8");
  expect(page).toContain(
    "<!-- included: docs/checkout-walkthrough.sh -->\n\n```sh\n" + readFileSync(script, "utf8") + "```\n",
  );
});

it("the walkthrough creates a product, is refused until it is stocked, and places an order", async () => {
  const admin = { KASSE_ADMIN_EMAIL: "walker@example.com", KASSE_ADMIN_PASSWORD: "walkthrough-pass" };
  const options = { ADMIN_UI: "false", SCRYPT_LOG_N: "4" };
  if (onPostgres()) {
    database = await createTestDatabase();
    const env = { ...options, DATABASE_URL: database.url! };
    for (const args of [
      ["seed"],
      ["user", "create", "--email", admin.KASSE_ADMIN_EMAIL, "--password", admin.KASSE_ADMIN_PASSWORD],
    ]) {
      const done = await runKasse(args, env);
      expect(done.code, done.stderr).toBe(0);
    }
    kasse = await startKasse({
      ...env,
      JWT_SECRET: "walkthrough-secret-walkthrough-secret",
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    });
  } else kasse = await startKasse({ ...options, KASSE_DATA_DIR: dataDir, ...admin });
  const { stdout } = await promisify(execFile)("bash", [script], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      KASSE_URL: kasse.url,
      ADMIN_EMAIL: admin.KASSE_ADMIN_EMAIL,
      ADMIN_PASSWORD: admin.KASSE_ADMIN_PASSWORD,
    },
    timeout: 240_000,
  });
  expect(stdout).toMatch(/^Before stocking: Insufficient inventory for variant variant_\S+: 1 requested$/m);
  expect(stdout).toMatch(/^Cart total with shipping: 2300 usd$/m);
  expect(stdout).toMatch(/^Order order_\S+ \(#1\) placed: 2300 usd, payment authorized$/m);
}, 420_000);
