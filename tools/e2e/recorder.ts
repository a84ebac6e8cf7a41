import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the storefront (its Next server or the browser) sent to Kasse, and Kasse's answer. */
export interface Exchange {
  seq: number;
  /** The journey step running when the request arrived. */
  step: string;
  method: string;
  /** Path and query as sent, base path included. */
  url: string;
  status: number;
  /** Whether an Authorization header was sent (the storefront's bearer for a signed-in customer). */
  authorized: boolean;
  /** Who sent it: "server" (Next) or "browser". */
  from: "server" | "browser";
  requestBody?: string;
  /** The answer's body for statuses >= 400 (Kasse's {type, message}), cut to 1000 characters. */
  responseBody?: string;
  ms: number;
}

/** A recording reverse proxy between the storefront and Kasse. */
export interface Recorder {
  url: string;
  exchanges: Exchange[];
  /** Labels the requests that arrive from now on. */
  mark(step: string): void;
  /** Resolves once no request is in flight (immediately if none is). */
  idle(timeoutMs: number): Promise<void>;
  /** Resolves with the first exchange (recorded from now on, or already recorded in this step) that matches. */
  waitForExchange(match: (exchange: Exchange) => boolean, timeoutMs: number): Promise<Exchange>;
  close(): Promise<void>;
}

const cut = (text: string, max = 1000) => (text.length > max ? `${text.slice(0, max)}…` : text);

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Listens on 127.0.0.1:`port` and forwards every request unchanged to `target` (Kasse), recording
 * it. The storefront is built against this address, so the suite sees each request Kasse gets from
 * it, whether sent by the Next server or by the browser, without touching Kasse.
 */
export async function startRecorder(port: number, target: URL): Promise<Recorder> {
  const exchanges: Exchange[] = [];
  let step = "startup";
  let inFlight = 0;
  const idleWaiters = new Set<() => void>();
  const exchangeWaiters = new Set<(exchange: Exchange) => void>();

  const server: Server = createServer((req, res) => {
    inFlight++;
    const started = performance.now();
    const label = step;
    void (async () => {
      const body = await readBody(req);
      // Plain bodies, so that Kasse's error messages can be recorded.
      const { "accept-encoding": _encoding, ...rest } = req.headers;
      const headers = { ...rest, host: target.host };
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        async (answer) => {
          const payload = await readBody(answer);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(payload);
          finish(answer.statusCode ?? 502, payload.toString("utf8"));
        },
      );
      upstream.on("error", (error) => {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "proxy_error", message: String(error) }));
        finish(502, String(error));
      });
      upstream.end(body);

      function finish(status: number, responseText: string) {
        const exchange: Exchange = {
          seq: exchanges.length + 1,
          step: label,
          method: req.method ?? "GET",
          url: req.url ?? "",
          status,
          authorized: typeof req.headers.authorization === "string",
          // Next's server-side fetch sends no Origin; the browser's cross-origin fetch always does.
          from: req.headers.origin ? "browser" : "server",
          requestBody: body.length ? cut(body.toString("utf8")) : undefined,
          responseBody: status >= 400 ? cut(responseText) : undefined,
          ms: Math.round(performance.now() - started),
        };
        exchanges.push(exchange);
        for (const waiter of exchangeWaiters) waiter(exchange);
        inFlight--;
        if (inFlight === 0) for (const waiter of idleWaiters) waiter();
      }
    })();
  });
  // As long as Kasse's own (HTTP_KEEP_ALIVE_TIMEOUT_MS, 5 s): the Next server's fetch (undici) reuses
  // an idle socket for up to 4 s, and a proxy that closed it sooner (1 s here once) cut a reused
  // socket under a request ("fetch failed: other side closed", a storefront error page).
  // close() ends open sockets itself.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `Port ${port} is taken: set KASSE_E2E_BACKEND_PORT to a free port (the storefront is then rebuilt for it)`,
            )
          : error,
      ),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${address.port}`,
    exchanges,
    mark(next) {
      step = next;
    },
    idle(timeoutMs) {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          idleWaiters.delete(done);
          reject(new Error(`${inFlight} request(s) to Kasse still in flight after ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          idleWaiters.delete(done);
          resolve();
        };
        idleWaiters.add(done);
      });
    },
    waitForExchange(match, timeoutMs) {
      const seen = exchanges.find((e) => e.step === step && match(e));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          exchangeWaiters.delete(check);
          reject(new Error(`no matching request reached Kasse within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (exchange: Exchange) => {
          if (!match(exchange)) return;
          clearTimeout(timer);
          exchangeWaiters.delete(check);
          resolve(exchange);
        };
        exchangeWaiters.add(check);
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
