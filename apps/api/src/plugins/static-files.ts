import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";

/** The files Kasse ships (the demo store's product pictures, `demo/{handle}.png`): `apps/api/static/`. */
const STATIC_DIR = fileURLToPath(new URL("../../static", import.meta.url));
/** Where they are served. */
const STATIC_PREFIX = "/static/";

/**
 * The demo store's picture of the product `handle` (a PNG), which the seed stores through the
 * file provider.
 * @example
 * await seedDemoStore(infra.modules, { pictures: demoPicture });
 */
export function demoPicture(handle: string): Promise<Buffer> {
  return readFile(join(STATIC_DIR, "demo", `${handle}.png`));
}

/**
 * Serves `apps/api/static/` at `/static/` (GET and HEAD, no directory listing, cached for a day):
 * demo stores seeded before the seed stored its pictures through the file provider point here.
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
