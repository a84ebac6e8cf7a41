import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import cors from "@fastify/cors";
import { registerOpenApi } from "./plugins/openapi";
import { registerResponseCheck } from "./plugins/response-check";
import { validatorCompiler } from "./plugins/validation";
import type { Config } from "./config";
import { createContainer, type Container, type Infrastructure } from "./container";
import { createWorkflowRuntime, type WorkflowRuntime } from "./workflows";
import { registerErrorHandling } from "./plugins/errors";
import { registerJsonBody } from "./plugins/json-body";
import { genReqId, registerRequestId } from "./plugins/request-id";
import { registerAuth, type ApiKeyVerifier } from "./plugins/auth";
import { createPublishableKeyCache, registerPublishableKey } from "./plugins/publishable-key";
import { secretKeyVerifier } from "./auth/api-keys";
import { parseQueryString } from "./http/query";
import { registerRoutes } from "./routes";
import { registerRateLimit } from "./plugins/rate-limit";
import { registerIdempotency } from "./plugins/idempotency";

/** The fastify instance with typebox types, as every route plugin receives it. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    infra: Infrastructure & WorkflowRuntime;
    modules: Container;
  }
}

export interface BuildAppOptions {
  config: Config;
  infra: Infrastructure;
  /** Pino options or `false`; tests pass `false`. */
  logger?: FastifyServerOptions["logger"];
  verifyApiKey?: ApiKeyVerifier;
  /** Extra routes registered after the app's own (tests use it for routes that throw or wait). */
  extraRoutes?: (app: App) => Promise<void> | void;
  /** Check every response against its documented schema (test apps; see `plugins/response-check.ts`). */
  checkResponses?: boolean;
}

const REDACT = ["req.headers.authorization", "req.headers.cookie", "req.headers[\"x-service-access-token\"]", "req.headers[\"x-publishable-api-key\"]"];

/**
 * Builds the HTTP app (not listening): plugins, error mapping, auth, every route.
 * @example
 * const app = await buildApp({ config, infra: { database } });
 * await app.listen({ port: config.port, host: config.host });
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, infra } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACT, censor: "[redacted]" } },
    genReqId,
    requestIdHeader: false,
    // Fastify's two lines per request are replaced by one line in the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { querystringParser: parseQueryString },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  if (options.checkResponses) registerResponseCheck(app);
  app.decorate("config", config);
  // A hand-built infrastructure without an engine gets an in-process one (nothing to close).
  app.decorate("infra", { ...infra, ...(infra.engine && infra.scheduler ? { engine: infra.engine, scheduler: infra.scheduler } : createWorkflowRuntime(infra.database)) });
  app.decorate("modules", createContainer(infra.database.db, { smtpUrl: config.env.SMTP_URL, logger: app.log, scryptLogN: config.scryptLogN }));

  registerRequestId(app);
  registerErrorHandling(app);
  registerJsonBody(app);
  // One log line per request, after the response: method, url (no query: it may carry api_token), status, time.
  app.addHook("onResponse", async (request, reply) => {
    request.log.info({ method: request.method, url: request.url.split("?")[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
  });
  await app.register(cors, {
    origin: (origin, callback) => callback(null, corsAllowed(config, origin)),
    credentials: true,
    exposedHeaders: ["x-request-id", "retry-after"],
  });
  await registerRateLimit(app, config, infra);
  registerAuth(app, { secret: config.jwt.secret, expiresIn: config.jwt.expiresIn, verifyApiKey: options.verifyApiKey ?? secretKeyVerifier(app.modules.apiKey) });
  registerPublishableKey(app, createPublishableKeyCache(app.modules.apiKey, app.modules.salesChannel));
  registerIdempotency(app, infra.database.db, config.jwt.secret);
  await registerOpenApi(app);
  await app.register(registerRoutes);
  if (options.extraRoutes) await app.register(async (child) => options.extraRoutes!(child as unknown as App));
  return app as unknown as App;
}

function corsAllowed(config: Config, origin: string | undefined): boolean {
  if (!origin) return true;
  const all = [...config.cors.store, ...config.cors.admin, ...config.cors.auth];
  return all.includes("*") || all.includes(origin);
}
