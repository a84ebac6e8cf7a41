import { Type } from "@sinclair/typebox";
import { migrationStatus, type Database } from "@kasse/db";
import type { App } from "../app-type";

const Health = Type.Object({ status: Type.String(), timestamp: Type.String({ format: "date-time" }) });
// 503 carries the error fields too, so a client reading `{type, message}` learns what is not answering.
const Ready = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  timestamp: Type.String({ format: "date-time" }),
  checks: Type.Record(Type.String(), Type.String()),
  type: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

/** How long a migration check is reused: readiness is probed every few seconds by every balancer. */
export const MIGRATION_CHECK_MS = 5_000;

/**
 * `/health` (the process serves, whatever its database and Redis do) and `/health/ready`
 * (database and Redis answer and, in services mode, the database has every migration this code
 * ships: during a rolling deploy a new process gets no traffic before its migration ran). A check
 * that fails says why: `redis: not connected to 127.0.0.1:6379 (connect ECONNREFUSED …)`.
 */
export default async function health(app: App): Promise<void> {
  const migrations = app.config.embedded ? undefined : migrationCheck(app.infra.database);

  app.get("/health", { schema: { tags: ["health"], response: { 200: Health } } }, async () => ({
    status: "ok",
    timestamp: new Date().toISOString(),
  }));

  app.get(
    "/health/ready",
    {
      schema: {
        tags: ["health"],
        response: { 200: Ready, 503: { ...Ready, description: "The database or Redis is not answering" } },
      },
    },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      const probe = async (name: string, fn: () => Promise<unknown>) => {
        try {
          await fn();
          checks[name] = "ok";
        } catch (error) {
          checks[name] = error instanceof Error ? error.message : "unavailable";
        }
      };
      await Promise.all([
        probe("database", () => app.infra.database.ping(2000)),
        app.infra.redis ? probe("redis", () => redisAnswers(app.infra)) : Promise.resolve(),
        migrations ? probe("migrations", migrations) : Promise.resolve(),
      ]);
      const failing = Object.entries(checks).filter(([, v]) => v !== "ok");
      return reply.code(failing.length ? 503 : 200).send({
        status: failing.length ? "unavailable" : "ok",
        timestamp: new Date().toISOString(),
        checks,
        ...(failing.length
          ? {
              type: "unavailable",
              message: `Not ready: ${failing.map(([name, problem]) => `${name}: ${problem}`).join("; ")}`,
            }
          : {}),
      });
    },
  );
}

/** Rejects, saying why, while Redis is not connected (the last connection error) or does not answer a ping. */
async function redisAnswers(infra: App["infra"]): Promise<void> {
  const problem = infra.redisProblem?.();
  if (problem) throw new Error(problem);
  await withTimeout(infra.redis!.ping(), 2000);
}

/** Rejects while the database lacks shipped migrations; one check per {@link MIGRATION_CHECK_MS}, failed queries not kept. */
function migrationCheck(database: Database): () => Promise<void> {
  let last: { at: number; pending: string[] } | undefined;
  let inFlight: Promise<string[]> | undefined;
  return async () => {
    if (!last || Date.now() - last.at >= MIGRATION_CHECK_MS) {
      inFlight ??= withTimeout(migrationStatus(database), 2000)
        .then((status) => status.pending)
        .finally(() => (inFlight = undefined));
      last = { at: Date.now(), pending: await inFlight };
    }
    if (last.pending.length > 0)
      throw new Error(`${last.pending.length} pending (${last.pending.join(", ")}): run kasse migrate`);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);
}
