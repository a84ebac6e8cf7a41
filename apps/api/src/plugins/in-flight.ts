import type { FastifyInstance, RouteHandlerMethod } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** Route handlers still running, so shutdown can wait for them before closing the database. */
    inFlight: InFlight;
  }
}

interface InFlight {
  /** How many route handlers are running now. */
  readonly size: number;
  /** Resolves once no handler runs, or at `deadline` (epoch ms); true when none is left. */
  settled(deadline: number): Promise<boolean>;
}

/**
 * Counts running route handlers. A handler whose client was cut off at the shutdown deadline
 * keeps running (Node does not abort it); closing the database under it would fail its next query.
 */
export function registerInFlight(app: FastifyInstance): void {
  const running = new Set<Promise<unknown>>();
  app.addHook("onRoute", (route) => {
    const handler = route.handler as RouteHandlerMethod;
    // Kasse's handlers are async; plugins' callback-style ones (static files, docs) touch no database.
    if (handler.constructor.name !== "AsyncFunction") return;
    route.handler = function tracked(this: FastifyInstance, request, reply) {
      const work = handler.call(this, request, reply) as Promise<unknown>;
      running.add(work);
      const done = () => running.delete(work);
      work.then(done, done);
      return work;
    } as RouteHandlerMethod;
  });
  app.decorate("inFlight", {
    get size() {
      return running.size;
    },
    async settled(deadline: number) {
      while (running.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...running]),
          new Promise((resolve) => (timer = setTimeout(resolve, left))),
        ]);
        clearTimeout(timer);
      }
      return true;
    },
  });
}
