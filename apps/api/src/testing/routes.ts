import type { RouteOptions } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, lazy } from "@kasse/db/testing";
import { createWorkflowRuntime, loadConfig, modulesOptions } from "@kasse/runtime";
import { buildApp, type App } from "../app";

/** An app built as production builds it (no response check), with every route it registered. */
export interface RouteWalk {
  app: App;
  routes: RouteOptions[];
  close(): Promise<void>;
}

/**
 * Builds the app over a fresh test database and records each route as fastify registers it, for
 * tests that walk every route's schema.
 * @example
 * const walk = useRouteWalk();
 * it("...", () => expect(walk.routes.length).toBeGreaterThan(0));
 */
async function routeWalk(): Promise<RouteWalk> {
  const database = await createTestDatabase();
  const routes: RouteOptions[] = [];
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    LOG_LEVEL: "silent",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const app = await buildApp({
    config,
    infra: { database, ...createWorkflowRuntime(database, { modules: modulesOptions(config) }) },
    logger: false,
    onRoute: (route) => routes.push(route),
  });
  await app.ready();
  return {
    app,
    routes,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A {@link routeWalk} made before the file's tests and closed after them, read in tests and hooks. */
export function useRouteWalk(): RouteWalk {
  let made: RouteWalk | undefined;
  beforeAll(async () => {
    made = await routeWalk();
  });
  afterAll(() => made?.close());
  return lazy(() => {
    if (!made) throw new Error("useRouteWalk: read before the walk was made (outside a test or hook)");
    return made;
  });
}
