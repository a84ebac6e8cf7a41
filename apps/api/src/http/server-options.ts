import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyBaseLogger, FastifyError, FastifyHttpOptions, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "@kasse/runtime";
import type { ErrorBody } from "../plugins/errors";

/** How often Node looks for connections past their headers or request timeout (it checks on an interval, not per socket). */
const checkingInterval = (timeoutMs: number) => Math.min(1_000, Math.max(50, Math.floor(timeoutMs / 4)));

/**
 * The parts of fastify's and Node's server set up before any route exists: how long a client may
 * take, and the `{type, message}` answers to requests that never reach the router (unparseable
 * HTTP, oversized headers, timeouts) or that the router refuses (a malformed percent-encoding,
 * an over-long path parameter). Spread into `Fastify({...})`.
 * @example
 * const app = Fastify({ ...serverOptions(config), logger });
 */
export function serverOptions(config: Pick<Config, "http">) {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    // Node measures headers and the whole request from their first byte, so a client sending one
    // byte at a time is cut after these however steady its trickle (an idle-socket timeout is not).
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(headersTimeoutMs),
    },
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    frameworkErrors,
    clientErrorHandler,
  } satisfies FastifyHttpOptions<Server>;
}

/** The router's refusals (fastify sends its own `{error, code, statusCode}` shape without this). */
function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void reply.code(414).send(body("invalid_data", "A path segment of this URL is too long"));
    return;
  }
  if (error.code === "FST_ERR_BAD_URL") {
    void reply.code(400).send(body("invalid_data", "The URL's path is not validly percent-encoded"));
    return;
  }
  void reply.code(500).send(body("unknown_error", "An unknown error occurred."));
}

/** What Node's HTTP parser and timeouts produce, as status, type and message. */
function clientFailure(code: string | undefined): [number, string, string] {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "timeout", "The request was not received in time"];
    case "HPE_HEADER_OVERFLOW":
      return [431, "invalid_data", "The request line and headers are too large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "invalid_data", "The request's chunk extensions are too large"];
    default:
      return [400, "invalid_data", "Malformed HTTP request"];
  }
}

/**
 * Node's `clientError`: a request that cannot be parsed, or a client too slow to send one. Answers
 * like Node's own handler does (only when no response has started on the socket), but in
 * `{type, message}` JSON, then closes the connection.
 */
function clientErrorHandler(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, type, message] = clientFailure(error.code);
  this.log.debug({ code: error.code, status }, "client error");
  // Node's own check: `_httpMessage` is the response in flight on this socket, if any.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const json = JSON.stringify(body(type, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

const body = (type: string, message: string): ErrorBody => ({ type, message });
