import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import Fastify, { type FastifyInstance } from "fastify";
import { Type } from "@sinclair/typebox";
import { View } from "@kasse/db";
import { registerResponseCheck } from "./response-check";

const Open = {
  200: Type.Object({ thing: View({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }) }),
};
const Strict = { 200: Type.Object({ user: Type.Object({ id: Type.String() }) }) };

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerResponseCheck(app);
  const routes: Record<string, [object, unknown]> = {
    "/listed": [Open, { thing: { id: "a", name: null } }],
    "/unlisted": [Open, { thing: { id: "a", name: "x", secret_extra: 1 } }],
    "/wrong-type": [Open, { thing: { id: "a", name: 5 } }],
    "/null-for-string": [{ 200: Type.Object({ name: Type.String() }) }, { name: null }],
    "/missing-required": [Strict, { user: {} }],
    "/hidden": [Strict, { user: { id: "u", password_hash: "h" } }],
  };
  for (const [url, [response, body]] of Object.entries(routes))
    app.get(url, { schema: { response } }, async () => body);
  await app.ready();
});
afterAll(() => app.close());

describe("the response check of test apps", () => {
  it("passes an answer that lists only documented keys, and one whose strict schema hides a key", async () => {
    expect((await app.inject("/listed")).json()).toEqual({ thing: { id: "a", name: null } });
    expect((await app.inject("/hidden")).json()).toEqual({ user: { id: "u" } });
  });

  it("fails an undocumented key in an open view, a wrong type, a null the serializer would turn into '' and a missing required key", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const url of ["/unlisted", "/wrong-type", "/null-for-string", "/missing-required"])
      expect((await app.inject(url)).statusCode, url).toBe(500);
    expect(log.mock.calls.map(([message]) => String(message)).join("\n")).toMatch(
      /GET \/unlisted 200: the answer does not match its schema/,
    );
    log.mockRestore();
  });
});
