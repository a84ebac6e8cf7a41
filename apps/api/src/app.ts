import Fastify, {
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
import { validatorCompiler } from "./plugins/validation";
import type { Config } from "./config";
import { createContainer, type Container, type Infrastructure } from "./container";
import { registerErrorHandling } from "./plugins/errors";
import { genReqId, registerRequestId } from "./plugins/request-id";
import { registerAuth, type ApiKeyVerifier } from "./plugins/auth";
import { parseQueryString } from "./http/query";
import { registerRoutes } from "./routes";

/** The fastify instance with typebox types, as every route plugin receives it. */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    infra: Infrastructure;
    modules: Container;
  }
}

export interface BuildAppOptions {
  config: Config;
  infra: Infrastructure;
  /** Pino options or `false`; tests pass `false`. */
  logger?: FastifyServerOptions["logger"];
  verifyApiKey?: ApiKeyVerifier;
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
    disableRequestLogging: true,
    routerOptions: { querystringParser: parseQueryString },
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.decorate("config", config);
  app.decorate("infra", infra);
  app.decorate("modules", createContainer(infra.database.db));

  registerRequestId(app);
  registerErrorHandling(app);
  // One log line per request, after the response: method, url (no query: it may carry api_token), status, time.
  app.addHook("onResponse", async (request, reply) => {
    request.log.info({ method: request.method, url: request.url.split("?")[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, "request");
  });
  await app.register(cors, {
    origin: (origin, callback) => callback(null, corsAllowed(config, origin)),
    credentials: true,
    exposedHeaders: ["x-request-id", "retry-after"],
  });
  registerAuth(app, { secret: config.jwt.secret, expiresIn: config.jwt.expiresIn, verifyApiKey: options.verifyApiKey });
  await registerOpenApi(app);
  await app.register(registerRoutes);
  return app as unknown as App;
}

function corsAllowed(config: Config, origin: string | undefined): boolean {
  if (!origin) return true;
  const all = [...config.cors.store, ...config.cors.admin, ...config.cors.auth];
  return all.includes("*") || all.includes(origin);
}
