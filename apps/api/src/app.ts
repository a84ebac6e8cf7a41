import Fastify, { LogController, type FastifyReply, type RouteOptions, type FastifyServerOptions } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { App } from "./app-type";
import { onDatabase, runsOn } from "@kasse/db";
import { registerOpenApi } from "./plugins/openapi";
import { registerResponseCheck } from "./plugins/response-check";
import { serializerCompiler, validatorCompiler } from "./plugins/validation";
import { loggerOptions, type Config, type Infrastructure, type KasseLoggerOptions } from "@kasse/runtime";
import { registerErrorHandling } from "./plugins/errors";
import { registerJsonBody } from "./plugins/json-body";
import { registerInputPolicy } from "./plugins/input-policy";
import { genReqId, registerRequestId } from "./plugins/request-id";
import { registerAuth, type ApiKeyVerifier } from "./plugins/auth";
import { createPublishableKeyCache, registerPublishableKey } from "./plugins/publishable-key";
import { secretKeyVerifier } from "./auth/api-keys";
import { parseQueryString } from "./http/query";
import { registerRoutes } from "./routes";
import { registerRateLimit } from "./plugins/rate-limit";
import { registerIdempotency } from "./plugins/idempotency";
import { registerCors } from "./plugins/cors";
import { serverOptions } from "./http/server-options";
import { registerAdminUi } from "./plugins/admin-ui";
import { registerStaticFiles } from "./plugins/static-files";
import { registerInFlight } from "./plugins/in-flight";
import { registerHttpMetrics } from "./plugins/metrics";
import { medusaRewriteUrl, registerMedusaDialect } from "./plugins/medusa-dialect";
import { registerFileUrls } from "./plugins/file-urls";

export type { App } from "./app-type";

export interface BuildAppOptions {
  config: Config;
  infra: Infrastructure;
  /** `false` (tests), or pino options added to Kasse's (`loggerOptions`), e.g. a test's `{ level, stream }`. */
  logger?: boolean | KasseLoggerOptions;
  verifyApiKey?: ApiKeyVerifier;
  /** Extra routes registered after the app's own (tests use it for routes that throw or wait). */
  extraRoutes?: (app: App) => Promise<void> | void;
  /** Called with every route as it is registered (the route-walk tests read the schemas). */
  onRoute?: (route: RouteOptions) => void;
  /** Check every response against its documented schema (test apps; see `plugins/response-check.ts`). */
  checkResponses?: boolean;
}

/**
 * Builds the HTTP app (not listening): plugins, error mapping, auth, every route.
 * @example
 * const app = await buildApp({ config, infra: await createInfrastructure(config) });
 * await app.listen({ port: config.port, host: config.host });
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, infra } = options;
  const app = Fastify({
    logger:
      options.logger === false ? false : loggerOptions(config.logLevel, options.logger === true ? {} : options.logger),
    genReqId,
    requestIdHeader: false,
    // Fastify's two lines per request are replaced by one line in the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { querystringParser: parseQueryString },
    // Medusa's dialect: the same routes under its base path (plugins/medusa-dialect.ts).
    rewriteUrl: medusaRewriteUrl(config.medusa.basePath),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...serverOptions(config),
    // A request arriving while the server shuts down gets Kasse's 503 `{type, message}` (server.ts), not fastify's.
    return503OnClosing: false,
    // Kasse's own compilers from the start, so fastify never loads its default ones (a second Ajv: a tenth of a start).
    // (Fastify types these factories after @fastify/ajv-compiler's pool API; a factory returning a compiler is what it calls.)
    schemaController: {
      compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
    } as unknown as FastifyServerOptions["schemaController"],
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  registerInFlight(app);
  if (infra.metrics) registerHttpMetrics(app, infra.metrics);
  if (options.checkResponses) registerResponseCheck(app);
  registerMedusaDialect(app, { checkResponses: options.checkResponses });
  registerFileUrls(app);
  app.decorate("config", config);
  app.decorate("infra", infra);
  // The process's modules, built once by the composition root (`@kasse/runtime`).
  app.decorate("modules", infra.modules);
  // Requests run on this app's database. A server's is the process's, where a request needs
  // nothing (no scope to carry, no hook to pay for); a second process's, in a test, is entered for
  // each request until its response is sent: a scope left as soon as `done` returns would disable
  // the storage (ambient.ts) under the request's own hooks and handler. Entered again after the body
  // is read: its stream's events carry no scope.
  if (!runsOn(infra.database.db)) {
    const onOwnDatabase = (_request: unknown, reply: FastifyReply, done: () => void) => {
      void onDatabase(infra.database.db, () => {
        done();
        return sent(reply);
      });
    };
    app.addHook("onRequest", onOwnDatabase);
    app.addHook("preValidation", onOwnDatabase);
  }

  registerRequestId(app);
  registerErrorHandling(app);
  registerJsonBody(app);
  // One log line per request, after the response: method, url as sent (with a dialect base path; no query: it may carry api_token), status, time.
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.originalUrl.split("?")[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "request",
    );
  });
  await registerCors(app);
  await registerRateLimit(app, config, infra);
  registerInputPolicy(app);
  registerAuth(app, {
    secret: config.jwt.secret,
    expiresIn: config.jwt.expiresIn,
    verifyApiKey: options.verifyApiKey ?? secretKeyVerifier(app.modules.apiKey, app.modules.user),
    verifySession: (claims) => app.modules.auth.sessionAlive(claims),
  });
  registerPublishableKey(app, createPublishableKeyCache(app.modules.apiKey, app.modules.salesChannel));
  registerIdempotency(app, infra.database.db, config.jwt.secret);
  await registerOpenApi(app);
  await app.register(registerRoutes);
  await registerAdminUi(app, config);
  await registerStaticFiles(app);
  if (options.extraRoutes) await app.register(async (child) => options.extraRoutes!(child as unknown as App));
  return app as unknown as App;
}

/** Settles when `reply`'s response is sent, or its connection closed first. */
function sent(reply: FastifyReply): Promise<void> {
  if (reply.raw.writableFinished || reply.raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    reply.raw.once("finish", resolve);
    reply.raw.once("close", resolve);
  });
}
