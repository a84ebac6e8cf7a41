import type { HTTPStatus } from "@bull-board/api/typings/app";
import { errors, toKasseError } from "@kasse/core";
import type { BullMqScheduler } from "@kasse/workflows";
import type { App } from "../../app-type";

/**
 * bull-board at `/admin/queues` when the engine queues to BullMQ (service mode). It sits inside
 * the admin prefix, so the admin guard covers its pages, assets and API alike.
 */
export default async function queues(app: App): Promise<void> {
  const scheduler = app.infra.scheduler;
  if (scheduler.kind !== "bullmq") return;
  // Loaded only in service mode: an embedded start has no queue to show.
  const [{ createBullBoard }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
    import("@bull-board/api"),
    import("@bull-board/api/bullMQAdapter"),
    import("@bull-board/fastify"),
  ]);
  const serverAdapter = new FastifyAdapter();
  createBullBoard({ queues: [new BullMQAdapter((scheduler as BullMqScheduler).queue)], serverAdapter });
  // Set after createBullBoard (which sets its own): it becomes the plugin's error handler, so the
  // admin guard's 401/403 keep Kasse's {type, message} body.
  serverAdapter.setErrorHandler((error) => {
    const known = toKasseError(error);
    return known.type === "unknown_error"
      ? { status: 500, body: { type: "unknown_error", message: "An unknown error occurred." } }
      : { status: known.status as HTTPStatus, body: { type: known.type, message: known.message } };
  });
  serverAdapter.setBasePath("/admin/queues");
  // bull-board's reads wait for Redis's first connection: while Redis is away, say so at once instead.
  app.addHook("onRequest", async () => {
    if (app.infra.redis && app.infra.redis.status !== "ready")
      throw errors.unavailable(
        `The workflow queue is not available (Redis: ${app.infra.redisProblem?.() ?? `${app.infra.redis.status}`}); retry later`,
      );
  });
  await app.register(serverAdapter.registerPlugin(), { prefix: "/queues" });
}
