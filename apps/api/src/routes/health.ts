import { Type } from "@sinclair/typebox";
import type { App } from "../app";

const Health = Type.Object({ status: Type.String(), timestamp: Type.String({ format: "date-time" }) });
// 503 carries the error fields too, so a client reading `{type, message}` learns what is not answering.
const Ready = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]),
  timestamp: Type.String({ format: "date-time" }),
  checks: Type.Record(Type.String(), Type.String()),
  type: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

/** `/health` (the process serves) and `/health/ready` (database and Redis answer). */
export default async function health(app: App): Promise<void> {
  app.get("/health", { schema: { tags: ["health"], response: { 200: Health } } }, async () => ({
    status: "ok",
    timestamp: new Date().toISOString(),
  }));

  app.get("/health/ready", { schema: { tags: ["health"], response: { 200: Ready, 503: { ...Ready, description: "The database or Redis is not answering" } } } }, async (_request, reply) => {
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
      app.infra.redis ? probe("redis", () => withTimeout(app.infra.redis!.ping(), 2000)) : Promise.resolve(),
    ]);
    const failing = Object.entries(checks).filter(([, v]) => v !== "ok").map(([k]) => k);
    return reply.code(failing.length ? 503 : 200).send({
      status: failing.length ? "unavailable" : "ok",
      timestamp: new Date().toISOString(),
      checks,
      ...(failing.length ? { type: "unavailable", message: `Not ready: ${failing.join(", ")} not answering` } : {}),
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}
