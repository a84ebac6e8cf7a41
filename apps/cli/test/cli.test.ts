import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EnvSchema } from "@kasse/runtime";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { connect, migrationsFolder, migrationStatus, queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createApiKeyService } from "@kasse/modules/api-key";
import { createAuthService } from "@kasse/modules/auth";
import { createRegionService } from "@kasse/modules/region";
import { createUserService } from "@kasse/modules/user";
import { helpText } from "../src/help";
import { envTable } from "../src/env-help";
import { kasse, node } from "./kasse-process";

const workerBin = fileURLToPath(new URL("../../worker/bin/kasse-worker.js", import.meta.url));

/** The URL of database `name` on the test server. */
function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `test` over a fresh migrated test database, closed after it whatever happens. */
async function onFreshDatabase(test: (database: TestDatabase) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  try {
    await test(database);
  } finally {
    await database.close();
  }
}

// Built once, like the composition root builds it: no handle; each call runs on the current database.
const auth = createAuthService({ scrypt: { logN: 4 } });
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("kasse --help", () => {
  it("lists the commands and every environment variable of EnvSchema with a description", async () => {
    const text = helpText();
    for (const command of ["start", "start --no-worker", "migrate", "check", "seed", "admin build", "user create"])
      expect(text).toMatch(new RegExp(`^  ${command} `, "m"));
    for (const name of Object.keys(EnvSchema.properties)) expect(text).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(envTable().every((row) => row.description.length > 5)).toBe(true);
    expect(text).toMatch(/PORT\s+9000/);
  });

  it("prints the help and exits 0; an unknown command or option exits non-zero", async () => {
    const help = await kasse(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("RATE_LIMIT_AUTH_MAX");
    const unknown = await kasse(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown command 'frobnicate'");
    const badOption = await kasse(["start", "--bogus"]);
    expect(badOption.code).toBe(1);
    expect(badOption.stderr).toMatch(/Unknown option '--bogus'/);
  });

  it("refuses a bad configuration with a clear message and exit 1", async () => {
    const res = await kasse(["start"], { DATABASE_URL: "postgres://127.0.0.1:1/x" });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("JWT_SECRET is required");
    const port = await kasse(["start"], { PORT: "nine" });
    expect(port.code).toBe(1);
    expect(port.stderr).toMatch(/Invalid configuration:\n\s+PORT/);
  });
});

describe.skipIf(!onPostgres())("kasse user create", () => {
  it("creates an admin with an emailpass login (no JWT_SECRET needed); a taken email or a bad one exits 1", async () => {
    await onFreshDatabase(async (database) => {
      const env = { DATABASE_URL: database.url!, SCRYPT_LOG_N: "4" };
      const created = await kasse(["user", "create", "--email", "Ops@Example.com", "--password", "s3cret-pass"], env);
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/Created admin user ops@example\.com \(user_/);
      const user = await createUserService().retrieveByEmail("ops@example.com");
      expect(user).not.toBeNull();

      const taken = await kasse(["user", "create", "--email", "ops@example.com", "--password", "other-pass"], env);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toMatch(/^conflict: /m);
      const bad = await kasse(["user", "create", "--email", "not-an-email", "--password", "x"], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^invalid_data: /m);
      const missing = await kasse(["user", "create", "--email", "a@b.co"], env);
      expect(missing.code).toBe(2);
      expect((await createUserService().list({}, { limit: 10, offset: 0 })).count).toBe(1);
    });
  }, 120_000);
});

describe.skipIf(!onPostgres())("kasse credentials and kasse user reset-password", () => {
  it("print the admin emails and publishable keys again; a reset password signs in, the old one and its sessions end", async () => {
    await onFreshDatabase(async (database) => {
      const env = { DATABASE_URL: database.url!, SCRYPT_LOG_N: "4" };
      expect(
        (await kasse(["user", "create", "--email", "ops@example.com", "--password", "first-pass"], env)).code,
      ).toBe(0);
      const seeded = await kasse(["seed"], env);
      const key = /x-publishable-api-key\): (pk_\S+)/.exec(seeded.stdout)?.[1];
      expect(key, seeded.stderr).toBeDefined();

      const listed = await kasse(["credentials"], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^ {2}ops@example\.com$/m);
      expect(listed.stdout).toContain(`  ${key}  `);
      expect(listed.stdout).toContain("kasse user reset-password");
      expect(listed.stdout).not.toContain("first-pass");

      const signIn = (password: string) =>
        auth.authenticate("emailpass", { body: { email: "ops@example.com", password } }).then(
          (r) => Boolean(r.identity),
          () => false,
        );
      const version = async () => (await auth.findByProvider("emailpass", "ops@example.com"))!.credentials_version;
      const before = await version();
      const generated = await kasse(["user", "reset-password", "--email", "Ops@Example.com"], env);
      expect(generated.code, generated.stderr).toBe(0);
      const password = /New password of admin user ops@example\.com: (\S+) \(shown once\)/.exec(generated.stdout)?.[1];
      expect(password).toBeDefined();
      expect([await signIn(password!), await signIn("first-pass")]).toEqual([true, false]);
      expect(await version(), "tokens signed before the reset end").toBeGreaterThan(before);

      const chosen = await kasse(
        ["user", "reset-password", "--email", "ops@example.com", "--password", "chosen-pass"],
        env,
      );
      expect(chosen.code, chosen.stderr).toBe(0);
      expect(chosen.stdout).not.toContain("chosen-pass");
      expect([await signIn("chosen-pass"), await signIn(password!)]).toEqual([true, false]);

      const unknown = await kasse(["user", "reset-password", "--email", "nobody@example.com"], env);
      expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/^not_found: /m)]);
      const short = await kasse(["user", "reset-password", "--email", "ops@example.com", "--password", "short"], env);
      expect([short.code, short.stderr]).toEqual([1, expect.stringMatching(/^invalid_data: /m)]);
      expect(await signIn("chosen-pass")).toBe(true);
      expect((await kasse(["user", "reset-password"], env)).code).toBe(2);
    });
  }, 120_000);
});

describe.skipIf(!onPostgres())("kasse seed", () => {
  it("seeds the demo store once and prints its publishable key (no JWT_SECRET needed)", async () => {
    await onFreshDatabase(async (database) => {
      const env = { DATABASE_URL: database.url! };
      const first = await kasse(["seed"], env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/Demo store seeded: 20 products/);
      expect(first.stdout).toMatch(/x-publishable-api-key\): pk_/);
      const second = await kasse(["seed"], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain("nothing seeded");
    });
  }, 120_000);
});

describe.skipIf(!onPostgres())("kasse check", () => {
  it("exits 0 on a sound database, 1 naming the violated row, 2 on a bad configuration or an unreachable database", async () => {
    await onFreshDatabase(async (database) => {
      const env = { DATABASE_URL: database.url! };
      expect((await kasse(["seed"], env)).code).toBe(0);
      const clean = await kasse(["check"], env);
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stdout).toMatch(/^ok {4}inventory levels: /m);
      expect(clean.stdout).toContain("All 8 checks passed.");
      const [level] = await queryRows<{ id: string }>(
        database.db,
        sql`update inventory_level set reserved_quantity = 2 where id = (select min(id) from inventory_level) returning id`,
      );
      const broken = await kasse(["check"], env);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toMatch(/^FAIL {2}inventory levels: .*: 1 violation$/m);
      expect(broken.stdout).toContain(`${level!.id}: reserved 2 but its reservations hold 0`);
      expect(broken.stdout).toContain("1 of 8 checks failed.");
      const badConfig = await kasse(["check"], { ...env, PORT: "nine" });
      expect(badConfig.code).toBe(2);
      expect(badConfig.stderr).toMatch(/Invalid configuration:\n\s+PORT/);
      const unreachable = await kasse(["check"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/x" });
      expect(unreachable.code).toBe(2);
      expect(unreachable.stderr.trim()).toBe(
        'Cannot use PostgreSQL at 127.0.0.1:1 (database "x", role "postgres"): connection refused; start PostgreSQL there, or fix the host and port in DATABASE_URL.',
      );
    });
  }, 120_000);
});

describe.skipIf(!onPostgres())("a database missing migrations", () => {
  it("is refused by start and the worker with 'run kasse migrate'; kasse migrate needs only DATABASE_URL", async () => {
    const server = await connect({ url: databaseUrl("postgres"), poolSize: 1 });
    const name = `kasse_t_${Math.floor(Date.now() / 1000)}_unmig${randomBytes(3).toString("hex")}`;
    await server.db.execute(`create database ${name}`);
    const url = databaseUrl(name);
    const database = await connect({ url, poolSize: 1 });
    try {
      const env = { DATABASE_URL: url, JWT_SECRET: "cli-test-secret-cli-test-secret", PORT: "0", HOST: "127.0.0.1" };
      const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
        entries: Array<{ tag: string }>;
      };
      const total = journal.entries.length;

      const never = await kasse(["start"], env);
      expect(never.code).toBe(1);
      expect(never.stdout).not.toMatch(/listening/);
      expect(never.stderr.trim()).toBe(
        `The database has not been migrated: ${total} of ${total} migrations pending (${journal.entries.map((e) => e.tag).join(", ")}). Run \`kasse migrate\` first.`,
      );
      const worker = await node([workerBin], { ...env, REDIS_URL: "redis://127.0.0.1:1" });
      expect(worker.code).toBe(1);
      expect(worker.stderr).toMatch(/has not been migrated: .*Run `kasse migrate` first\./);

      const migrated = await kasse(["migrate"], { DATABASE_URL: url });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stdout).toContain("Migrations applied (PostgreSQL).");
      expect(await migrationStatus(database)).toEqual({ expected: total, pending: [] });

      // One migration behind (a new version's migration not run yet): refused, naming it.
      await database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      const behind = await kasse(["start", "--no-worker"], env);
      expect(behind.code).toBe(1);
      expect(behind.stderr.trim()).toBe(
        `The database is behind this version of Kasse: 1 of ${total} migrations pending (${journal.entries.at(-1)!.tag}). Run \`kasse migrate\` first.`,
      );
    } finally {
      await database.close();
      await server.db.execute(`drop database if exists ${name} with (force)`);
      await server.close();
    }
  }, 120_000);
});

describe.skipIf(!onPostgres())("kasse seed --publishable-key", () => {
  it("gives the demo store's publishable key the token asked for; a malformed token exits 1 and seeds nothing", async () => {
    await onFreshDatabase(async (database) => {
      const env = { DATABASE_URL: database.url!, JWT_SECRET: "cli-test-secret-cli-test-secret" };
      const bad = await kasse(["seed", "--publishable-key", "sk_not-a-publishable-key"], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^invalid_data: A publishable API key token is pk_/m);
      expect((await createRegionService().list({}, { limit: 1, offset: 0 })).count).toBe(0);

      const token = "pk_e2e_fixed_storefront_key_0001";
      const seeded = await kasse(["seed", "--publishable-key", token], env);
      expect(seeded.code, seeded.stderr).toBe(0);
      expect(seeded.stdout).toContain(`x-publishable-api-key): ${token}`);
      const key = await createApiKeyService().resolvePublishable(token);
      expect(key?.sales_channel_ids).toHaveLength(1);
    });
  }, 120_000);
});

describe.skipIf(!onPostgres())("kasse start (services)", () => {
  it("serves on PostgreSQL without migrating, seeding or creating an admin; --no-worker runs the API alone", async () => {
    await onFreshDatabase(async (database) => {
      let seen: string | undefined;
      let ready: number | undefined;
      const env = {
        DATABASE_URL: database.url!,
        JWT_SECRET: "cli-test-secret-cli-test-secret",
        PORT: "0",
        HOST: "127.0.0.1",
      };
      const result = await kasse(["start", "--no-worker"], env, (stdout, child) => {
        const url = /listening on (http:\/\/\S+) \(services, without worker\)/.exec(stdout)?.[1];
        if (!url || seen !== undefined) return;
        seen = stdout;
        void fetch(`${url}/health/ready`)
          .then((res) => (ready = res.status))
          .finally(() => child.kill("SIGTERM"));
      });
      expect(result.code, result.stderr).toBe(0);
      expect(ready).toBe(200);
      expect(seen).not.toMatch(/Admin login|Demo store seeded/);
      expect((await createUserService().list({}, { limit: 1, offset: 0 })).count).toBe(0);
    });
  }, 120_000);
});

describe("kasse start (embedded)", () => {
  it("migrates a new data dir, serves /health and /docs, and stops gracefully on SIGTERM", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "kasse-start-"));
    dirs.push(dataDir);
    let url: string | undefined;
    let checks: Promise<unknown> | undefined;
    const result = await kasse(
      ["start"],
      { KASSE_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" },
      (stdout, child) => {
        const match = /listening on (http:\/\/\S+) \(embedded/.exec(stdout);
        if (!match || url) return;
        url = match[1];
        checks = (async (): Promise<unknown> => {
          try {
            const health = await fetch(`${url}/health`);
            expect(health.status).toBe(200);
            expect(((await health.json()) as { status: string }).status).toBe("ok");
            expect((await fetch(`${url}/health/ready`)).status).toBe(200);
            expect((await fetch(`${url}/docs/json`)).status).toBe(200);
            // The admin dashboard: served at /app, or (first start on this checkout) being built with a 503 saying so.
            expect(stdout).toContain(`Admin dashboard: ${url}/app`);
            const app = await fetch(`${url}/app/orders`);
            if (app.status === 503) expect(((await app.json()) as { type: string }).type).toBe("unavailable");
            else expect([app.status, app.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
            // The first start created an admin and printed its generated password once.
            const login = /Admin login: (\S+) \/ (\S+)/.exec(stdout);
            expect(login?.[1]).toBe("admin@kasse.local");
            const token = await fetch(`${url}/auth/user/emailpass`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ email: login![1], password: login![2] }),
            });
            expect(token.status).toBe(200);
            expect(typeof ((await token.json()) as { token?: unknown }).token).toBe("string");
            // ... and seeded the demo store, readable with the printed publishable key.
            const key = /Publishable API key \(x-publishable-api-key\): (\S+)/.exec(stdout)?.[1];
            expect(key).toMatch(/^pk_/);
            const products = await fetch(`${url}/store/products?limit=5`, {
              headers: { "x-publishable-api-key": key! },
            });
            expect(products.status).toBe(200);
            expect(((await products.json()) as { count: number }).count).toBe(20);
            return undefined;
          } catch (error) {
            return error;
          } finally {
            child.kill("SIGTERM");
          }
        })();
      },
    );
    expect(url, result.stderr).toBeDefined();
    const failed = await checks;
    if (failed) throw failed;
    expect(result.code).toBe(0);

    // A restart on the same data: no new admin, no second seed.
    let again: string | undefined;
    const restart = await kasse(
      ["start"],
      { KASSE_DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" },
      (stdout, child) => {
        if (again === undefined && /listening on/.test(stdout)) {
          again = stdout;
          child.kill("SIGTERM");
        }
      },
    );
    expect(restart.code, restart.stderr).toBe(0);
    expect(again).toMatch(/with worker/);
    expect(again).not.toMatch(/Admin login|Demo store seeded/);
  }, 240_000);
});
