import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request ids: a well-formed incoming `x-request-id` is kept, else one is made; echoed on every response. */
export const genReqId = (request: { headers: Record<string, string | string[] | undefined> }): string => {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_ID.test(incoming) ? incoming : randomUUID();
};

export function registerRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    void reply.header("x-request-id", request.id);
  });
}
