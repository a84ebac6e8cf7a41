import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";

/** The files Kasse serves itself (the demo store's product pictures): `apps/api/static/`. */
const STATIC_DIR = fileURLToPath(new URL("../../static", import.meta.url));
/** Where they are served. */
const STATIC_PREFIX = "/static/";

/**
 * Serves `apps/api/static/` at `/static/` (GET and HEAD, no directory listing, cached for a day):
 * the demo products' `thumbnail` and `images` point here, as absolute URLs under `PUBLIC_URL`.
 */
export async function registerStaticFiles(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: STATIC_DIR,
      prefix: STATIC_PREFIX,
      index: false,
      list: false,
      dotfiles: "deny",
      cacheControl: true,
      maxAge: "1d",
    });
  });
}
