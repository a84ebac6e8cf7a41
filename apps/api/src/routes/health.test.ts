import { describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createTestDatabase, useTestDatabase } from "@kasse/db/testing";
import { buildApp } from "../app";
import { loadConfig, type Infrastructure, createWorkflowRuntime, modulesOptions } from "@kasse/runtime";
import { MIGRATION_CHECK_MS } from "./health";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const config = loadConfig({
  JWT_SECRET: "test-secret-test-secret-test-secret",
  LOG_LEVEL: "silent",
  RATE_LIMIT_MAX: "0",
  RATE_LIMIT_AUTH_MAX: "0",
});

const database = useTestDatabase();

/** An app on `database` (and `redis`), with an engine of its own as every process has. */
const appOn = (infra: Pick<Infrastructure, "database" | "redis">, appConfig = config) =>
  buildApp({
    config: appConfig,
    infra: { ...infra, ...createWorkflowRuntime(infra.database, { modules: modulesOptions(appConfig) }) },
    logger: false,
  });

const ready = async (infra: Pick<Infrastructure, "database" | "redis">) => {
  const app = await appOn(infra);
  try {
    return await app.inject({ method: "GET", url: "/health/ready" });
  } finally {
    await app.close();
  }
};

describe("/health/ready", () => {
  it("answers 200 when the database and Redis answer", async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const res = await ready({ database, redis });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: "ok", checks: { database: "ok", redis: "ok" } });
    } finally {
      await redis.quit();
    }
  });

  it("answers 503 naming the database when it does not answer", async () => {
    const unreachable = {
      ...database,
      ping: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      },
    };
    const res = await ready({ database: unreachable });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: "unavailable",
      type: "unavailable",
      checks: { database: "connect ECONNREFUSED 127.0.0.1:5432" },
    });
    expect(res.json().message).toMatch(/database/);
    // The process itself still serves.
    const app = await appOn({ database: unreachable });
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    await app.close();
  });

  it("answers 503 once the database is closed", async () => {
    const own = await createTestDatabase();
    await own.close();
    const res = await ready({ database: own });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks.database).not.toBe("ok");
  });

  it("answers 503 naming Redis when Redis does not answer", async () => {
    const redis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    try {
      const res = await ready({ database, redis });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: "ok" });
      expect(res.json().checks.redis).not.toBe("ok");
      expect(res.json().message).toMatch(/redis/);
    } finally {
      redis.disconnect();
    }
  });

  it("answers 503 naming the migrations in services mode while the database is behind the code, and 200 once it is migrated", async () => {
    // Services mode (DATABASE_URL set) on a database of its own; embedded mode migrates itself on start.
    const services = loadConfig({
      DATABASE_URL: "postgres://services-mode",
      JWT_SECRET: "test-secret-test-secret-test-secret",
      LOG_LEVEL: "silent",
      RATE_LIMIT_MAX: "0",
      RATE_LIMIT_AUTH_MAX: "0",
    });
    const own = await createTestDatabase();
    const app = await appOn({ database: own }, services);
    try {
      const ready = () => app.inject({ method: "GET", url: "/health/ready" });
      const [latest] = await queryRows<{ hash: string; created_at: string }>(
        own.db,
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`,
      );
      const behind = await ready();
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toMatchObject({ status: "unavailable", type: "unavailable", checks: { database: "ok" } });
      expect(behind.json().checks.migrations).toMatch(/^1 pending \(\d{4}_\w+\): run kasse migrate$/);
      expect(behind.json().message).toMatch(/^Not ready: migrations: 1 pending/);

      await own.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${latest!.hash}, ${latest!.created_at})`,
      );
      // The check is reused for a few seconds (balancers probe often), then made again.
      expect((await ready()).statusCode).toBe(503);
      const now = Date.now();
      vi.spyOn(Date, "now").mockReturnValue(now + MIGRATION_CHECK_MS);
      const migrated = await ready();
      vi.restoreAllMocks();
      expect(migrated.statusCode).toBe(200);
      expect(migrated.json().checks).toEqual({ database: "ok", migrations: "ok" });
    } finally {
      vi.restoreAllMocks();
      await app.close();
      await own.close();
    }
  });

  it("has no migration check in embedded mode", async () => {
    const res = await ready({ database });
    expect(res.statusCode).toBe(200);
    expect(res.json().checks).toEqual({ database: "ok" });
  });
});
