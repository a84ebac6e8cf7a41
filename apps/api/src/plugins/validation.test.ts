import fastJsonStringify from "fast-json-stringify";
import { describe, expect, it } from "vitest";
import { useRouteWalk } from "../testing/routes";
import { moneyAsNumber } from "./medusa-dialect";
import { Type } from "@sinclair/typebox";
import { compileSerializer, compileValidator, serializerSchema } from "./validation";

const walk = useRouteWalk();

describe("route schemas", () => {
  // The app compiles each schema when a request first needs it (a start compiles nothing): this
  // compiles them all, so a schema Ajv or fast-json-stringify refuses fails here, not on a first request.
  it("every request and response schema of every route compiles", () => {
    let compiled = 0;
    const failures: string[] = [];
    for (const route of walk.routes) {
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
          fastJsonStringify(serializerSchema(moneyAsNumber(response) as object), { schema: {} });
          compiled++;
        } catch (error) {
          failures.push(`${at} ${status}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(walk.routes.length).toBeGreaterThan(100);
    expect(compiled).toBeGreaterThan(walk.routes.length);
  });

  it("a lazily compiled validator still answers a bad request with 400 and the reason", async () => {
    const res = await walk.app.inject({ method: "GET", url: "/store/products?limit=-1" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: "invalid_data" });
    expect(res.json().message).toMatch(/limit/);
  });

  it("nullable unions serialize as they would through anyOf, without validating each answer", () => {
    const Address = Type.Object({ city: Type.String(), zip: Type.Union([Type.String(), Type.Null()]) });
    const schema = Type.Object({
      address: Type.Union([Address, Type.Null()]),
      status: Type.Union([Type.Literal("a"), Type.Literal("b")]),
      maybe: Type.Union([Type.Literal("x"), Type.Literal("y"), Type.Null()]),
      at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
      n: Type.Union([Type.Integer(), Type.Null()]),
      mixed: Type.Union([Type.String(), Type.Integer()]),
      items: Type.Array(Type.Union([Address, Type.Null()])),
    });
    const before = JSON.stringify(schema);
    const rewritten = serializerSchema(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(schema)).toBe(before); // the route's own schema is untouched
    expect(rewritten.properties.address).toMatchObject({ type: "object", nullable: true });
    expect(rewritten.properties.status).toMatchObject({ type: "string", enum: ["a", "b"] });
    expect(rewritten.properties.mixed!.anyOf).toHaveLength(2);
    const viaAnyOf = fastJsonStringify(schema, { schema: {} });
    const viaNullable = fastJsonStringify(rewritten as object, { schema: {} });
    const values = [
      { address: null, status: "a", maybe: null, at: null, n: null, mixed: "s", items: [] },
      {
        address: { city: "Paris", zip: null },
        status: "b",
        maybe: "y",
        at: "2026-01-01T00:00:00.000Z",
        n: 3,
        mixed: 4,
        items: [null, { city: "Oslo", zip: "0150" }],
      },
    ];
    for (const value of values) {
      expect(viaNullable(value)).toBe(viaAnyOf(value));
      expect(JSON.parse(viaNullable(value))).toEqual(value);
    }
  });
});
