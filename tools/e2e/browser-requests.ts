import type { BrowserContext, Request } from "playwright-core";

/** The browser's requests to the storefront in one context: logged, and waited on by {@link quiet}. */
export interface StorefrontRequests {
  /**
   * Resolves once no request to the storefront is in flight (prefetches excepted): a client
   * navigation whose answer lands after a server action's would overwrite the action's render.
   */
  quiet(timeoutMs: number): Promise<void>;
}

const kindOf = (request: Request) => {
  const headers = request.headers();
  return headers["next-action"]
    ? " (server action)"
    : headers["next-router-prefetch"]
      ? " (prefetch)"
      : headers["rsc"]
        ? " (rsc)"
        : "";
};

/** Tracks `context`'s requests to `shop`, appending one line per finished request to `log` labelled with `step()`. */
export function trackStorefrontRequests(
  context: BrowserContext,
  shop: string,
  log: string[],
  step: () => string,
): StorefrontRequests {
  const inFlight = new Set<Request>();
  const started = new Map<Request, number>();
  const waiters = new Set<() => void>();
  const ended = (request: Request, outcome: string) => {
    if (!request.url().includes("/_next/static/") && request.url().startsWith(shop)) {
      log.push(
        `${step()} | ${request.method()} ${request.url().slice(shop.length)}${kindOf(request)} ${outcome} after ${Math.round(performance.now() - (started.get(request) ?? 0))} ms`,
      );
    }
    started.delete(request);
    inFlight.delete(request);
    if (inFlight.size === 0) for (const waiter of waiters) waiter();
  };
  context.on("request", (request) => {
    started.set(request, performance.now());
    // Link prefetches render pages nobody asked for yet; nothing waits on them (and the footer links pages that do not exist).
    if (request.url().startsWith(shop) && !request.headers()["next-router-prefetch"]) inFlight.add(request);
  });
  context.on(
    "requestfinished",
    (request) => void request.response().then((r) => ended(request, `→ ${r?.status() ?? "?"}`)),
  );
  context.on("requestfailed", (request) => ended(request, `failed: ${request.failure()?.errorText}`));
  return {
    quiet(timeoutMs) {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(done);
          reject(
            new Error(
              `storefront requests still in flight after ${timeoutMs} ms: ${[...inFlight].map((r) => `${r.method()} ${r.url()}`).join(", ")}`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        waiters.add(done);
      });
    },
  };
}
