import type { RouteOptions } from "fastify";
import fastJsonStringify from "fast-json-stringify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../app";
import { routeWalk, type RouteWalk } from "../testing/routes";
import { moneyAsNumber } from "./medusa-dialect";
import { compileSerializer, compileValidator } from "./validation";

let app: App;
let routes: RouteOptions[] = [];
let walk: RouteWalk | undefined;
beforeAll(async () => {
  walk = await routeWalk();
  ({ app, routes } = walk);
});
afterAll(() => walk?.close());

describe("route schemas", () => {
  // The app compiles each schema when a request first needs it (a start compiles nothing): this
  // compiles them all, so a schema Ajv or fast-json-stringify refuses fails here, not on a first request.
  it("every request and response schema of every route compiles", () => {
    let compiled = 0;
    const failures: string[] = [];
    for (const route of routes) {
      const schema = (route.schema ?? {}) as Record<string, unknown>;
      const at = `${String(route.method)} ${route.url}`;
      for (const part of ["body", "querystring", "params", "headers"] as const) {
        if (!schema[part]) continue;
        try {
          compileValidator(schema[part] as object, part);
          compiled++;
        } catch (error) {
          failures.push(`${at} ${part}: ${(error as Error).message}`);
        }
      }
      for (const [status, response] of Object.entries((schema.response ?? {}) as Record<string, object>)) {
        try {
          compileSerializer(response);
          // What the Medusa dialect's serializer compiles (money as numbers) too.
          fastJsonStringify(moneyAsNumber(response) as object, { schema: {} });
          compiled++;
        } catch (error) {
          failures.push(`${at} ${status}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
    expect(compiled).toBeGreaterThan(routes.length);
  });

  it("a lazily compiled validator still answers a bad request with 400 and the reason", async () => {
    const res = await app.inject({ method: "GET", url: "/store/products?limit=-1" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: "invalid_data" });
    expect(res.json().message).toMatch(/limit/);
  });
});
