import type { RouteOptions } from "fastify";

type HookName = "onRequest" | "preValidation" | "preHandler" | "preSerialization";

/**
 * Adds `hook` to one route, after the route's own hooks of that name (in an `onRoute` hook): a
 * plugin that only some routes need (those whose schemas mark a field) costs the others nothing,
 * where an app-wide hook runs on every request.
 * @example
 * app.addHook("onRoute", (route) => { if (route.schema?.body) addRouteHook(route, "preValidation", emptyBody); });
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: (...args: never[]) => unknown): void {
  const current = route[name] as unknown;
  const hooks = current === undefined ? [] : Array.isArray(current) ? current : [current];
  (route as unknown as Record<HookName, unknown[]>)[name] = [...hooks, hook];
}
