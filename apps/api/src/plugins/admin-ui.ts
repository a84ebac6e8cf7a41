import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { ADMIN_BASE, adminBuildState } from "@kasse/admin";
import type { Config } from "@kasse/runtime";

/** Vite names every file under assets/ by its content hash, so a cached copy never goes stale. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * No page may frame the dashboard (clickjacking: an admin tricked into clicking through a
 * transparent frame): the header old browsers read and the CSP directive that replaces it.
 */
const NO_FRAMING = { "x-frame-options": "DENY", "content-security-policy": "frame-ancestors 'none'" } as const;

/**
 * Serves Medusa's admin dashboard (built by `@kasse/admin` for `MEDUSA_BASE_PATH`, the Medusa dialect's base path) at `/app`:
 * hashed assets under `/app/assets/`, and `index.html` for every other GET so that deep links
 * (`/app/orders/order_…`) reach the dashboard's router. Until the build exists, `/app` answers
 * 503 saying how it gets built. Every answer forbids framing. `ADMIN_UI=false` registers nothing.
 */
export async function registerAdminUi(app: FastifyInstance, config: Config): Promise<void> {
  if (!config.adminUi.enabled) return;
  const located = locateBuild(config.adminUi.backendPath);
  let ready = false;
  const isReady = () => (ready ||= located.dir !== undefined && existsSync(join(located.dir, "index.html")));

  await app.register(
    async (scope) => {
      // First, so every answer under /app carries it: the page, assets, 404s and the "not built yet" page.
      scope.addHook("onRequest", async (_request, reply) => {
        void reply.headers(NO_FRAMING);
      });
      scope.addHook("onRequest", async (request, reply) => {
        if (!isReady()) return unavailable(request, reply, located.problem);
      });
      if (located.dir !== undefined) {
        await scope.register(fastifyStatic, {
          root: located.dir,
          prefix: "/",
          index: false,
          // The folder appears when the background build finishes; until then the hook above answers.
          suppressWarning: true,
          cacheControl: false,
          // Only the bundle's files: index.html through the fallback, everything else from assets/.
          allowedPath: (pathname) => pathname === "index.html" || pathname.startsWith("/assets/"),
          setHeaders: (reply, path) =>
            reply.header("cache-control", path.endsWith("index.html") ? "no-cache" : IMMUTABLE),
        });
      }
      const index = (_request: FastifyRequest, reply: FastifyReply) => reply.sendFile("index.html");
      scope.get("/", { schema: { hide: true } }, index);
      scope.setNotFoundHandler((request, reply) => {
        const path = request.url.split("?")[0]!;
        if ((request.method === "GET" || request.method === "HEAD") && !path.startsWith(`${ADMIN_BASE}/assets/`))
          return index(request, reply);
        return reply.code(404).send({ type: "not_found", message: `Route ${request.method} ${path} not found` });
      });
    },
    { prefix: ADMIN_BASE },
  );
}

function locateBuild(backendPath: string): { dir?: string; problem: string } {
  const howToBuild =
    "`kasse start` builds it in the background on its first start (about a minute); `npm run build:admin` builds it ahead. ADMIN_UI=false turns /app off.";
  try {
    return {
      dir: adminBuildState({ backendPath }).dir,
      problem: `The admin dashboard is not built yet. ${howToBuild}`,
    };
  } catch (error) {
    // @medusajs/dashboard is missing (an install without the admin workspace): say so instead of failing to start.
    return { problem: `The admin dashboard cannot be built: ${(error as Error).message}` };
  }
}

function unavailable(request: FastifyRequest, reply: FastifyReply, message: string): FastifyReply {
  void reply.code(503).header("retry-after", "30").header("cache-control", "no-store");
  if (!request.headers.accept?.includes("text/html")) return reply.send({ type: "unavailable", message });
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="15"><title>Kasse admin</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;line-height:1.5"><h1>Admin dashboard unavailable</h1><p>${escapeHtml(message)}</p><p>This page reloads by itself.</p></body></html>`;
  return reply.type("text/html; charset=utf-8").send(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
