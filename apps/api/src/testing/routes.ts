import type { RouteOptions } from "fastify";
import { createTestDatabase } from "@kasse/db/testing";
import { createWorkflowRuntime, loadConfig } from "@kasse/runtime";
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
 * let walk: RouteWalk;
 * beforeAll(async () => (walk = await routeWalk()));
 * afterAll(() => walk.close());
 */
export async function routeWalk(): Promise<RouteWalk> {
  const database = await createTestDatabase();
  const routes: RouteOptions[] = [];
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    LOG_LEVEL: "silent",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  const app = await buildApp({
    config,
    infra: { database, ...createWorkflowRuntime(database) },
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
