import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from "pino";

/** Pino options with the destination fastify accepts beside them. */
export type KasseLoggerOptions = LoggerOptions & { stream?: DestinationStream };

const CENSOR = "[redacted]";

/** Headers that carry credentials or capabilities: never logged, wherever a `headers` object turns up. */
const SECRET_HEADERS = [
  "authorization",
  "cookie",
  "set-cookie",
  "x-service-access-token",
  "x-publishable-api-key",
  "idempotency-key",
];

/** Fields never logged: bodies (they hold passwords and tokens) and the credential headers, at the top and one level down. */
const REDACT = [
  ...["body", "payload", "password", "token"].flatMap((key) => [key, `*.${key}`]),
  ...SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`]),
];

/** Properties of an error that carry a request or response (a client error's raw bytes, an HTTP client's headers and body). */
const ERROR_DROPS = new Set(["rawPacket", "headers", "body", "config", "request", "response", "params"]);

// A path or URL followed by its query string: `/auth/reset?token=…`, `https://host/x?y=1`.
const QUERY = /((?:[a-z][a-z0-9+.-]*:\/\/[^\s/?#"'<>]*)?\/[^\s?#"'<>]*)\?[^\s#"'<>]*/gi;

/**
 * `text` with every query string dropped (reset and invite tokens, `api_token` travel there).
 * @example
 * stripQueryStrings("GET /auth/reset?token=abc failed"); // "GET /auth/reset failed"
 */
export function stripQueryStrings(text: string): string {
  return text.replace(QUERY, "$1");
}

function stripDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return stripQueryStrings(value);
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => stripDeep(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !ERROR_DROPS.has(key))
      .map(([key, child]) => [key, stripDeep(child, depth + 1)]),
  );
}

/** A request as logged: method and path only (no query string, no headers, no body). */
const req = (request: { method?: string; url?: string; ip?: string }) => ({
  method: request.method,
  url: request.url === undefined ? undefined : stripQueryStrings(request.url),
  remoteAddress: request.ip,
});

/** A response as logged: its status only (no headers, no body). */
const res = (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode });

/** An error as logged: pino's form, without query strings and without the request or response it may carry. */
const err = (error: unknown) => (error instanceof Error ? stripDeep(stdSerializers.err(error)) : stripDeep(error));

/**
 * The one logger configuration of Kasse's processes (API and worker): query strings are dropped
 * from every message, request and error; credential headers, cookies and bodies are never
 * logged. `extra` adds options (a name; a test's `level` and `stream`).
 * @example
 * Fastify({ logger: loggerOptions(config.logLevel) });
 * pino(loggerOptions(config.logLevel, { name: "kasse-worker" }));
 */
export function loggerOptions(level: string, extra: KasseLoggerOptions = {}): KasseLoggerOptions {
  return {
    level,
    serializers: {
      req,
      request: req,
      res,
      reply: res,
      err,
      error: err,
      msg: (message: unknown) => (typeof message === "string" ? stripQueryStrings(message) : message),
    },
    redact: { paths: REDACT, censor: CENSOR },
    ...extra,
  };
}

/**
 * A logger of a process outside fastify (the worker, the engine of `kasse start`), with Kasse's
 * options (`loggerOptions`); `extra` as there, its `stream` the destination.
 * @example
 * const logger = createLogger(config.logLevel, { name: "kasse-worker" });
 */
export function createLogger(level: string, extra: KasseLoggerOptions = {}): Logger {
  const { stream, ...rest } = extra;
  return pino(loggerOptions(level, rest), stream);
}
