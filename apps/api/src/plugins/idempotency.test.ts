import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { and, eq, sql } from "drizzle-orm";
import { errors } from "@kasse/core";
import { idempotencyKey, purgeExpiredIdempotencyKeys } from "@kasse/db";
import { createTestApp, type TestApp } from "../testing";

let t: TestApp;
let admin: Record<string, string>;
let runs = 0;
let failNext = false;
let release: () => void = () => {};
let started: () => void = () => {};

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      extraRoutes: (app) => {
        app.post(
          "/test/count",
          { schema: { body: Type.Object({ n: Type.Integer() }, { additionalProperties: false }) } },
          async (request) => {
            runs += 1;
            if (failNext) {
              failNext = false;
              throw new Error("boom");
            }
            if (request.body.n < 0) throw errors.invalidData("n must not be negative");
            return { runs, n: request.body.n };
          },
        );
        app.post("/test/slow", async () => {
          runs += 1;
          started();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return { done: true };
        });
      },
    },
  );
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, headers: { ...admin, ...headers } });
const hashed = (key: string) => createHash("sha256").update(key).digest("hex");
const keyRows = (key: string) =>
  t.database.db
    .select()
    .from(idempotencyKey)
    .where(eq(idempotencyKey.key, hashed(key)));

describe("Idempotency-Key", () => {
  it("runs the first request and replays the stored response for a repeat", async () => {
    const before = runs;
    const first = await post("/test/count", { n: 1 }, { "idempotency-key": "replay-1" });
    expect(first.statusCode).toBe(200);
    const again = await post("/test/count", { n: 1 }, { "idempotency-key": "replay-1" });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(runs).toBe(before + 1);
  });

  it("stores nothing readable: the key hashed, the response encrypted, the request as an HMAC", async () => {
    const res = await post("/test/count", { n: 424242 }, { "idempotency-key": "secret-key-1" });
    const [row] = await keyRows("secret-key-1");
    expect(row).toBeDefined();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain("secret-key-1");
    expect(stored).not.toContain("424242");
    expect(row!.response_body).not.toContain(res.body);
    expect(row!.fingerprint).not.toBe(createHash("sha256").update(`POST /test/count\n{"n":424242}`).digest("hex"));
    // A tampered ciphertext is refused, never served.
    await t.database.db
      .update(idempotencyKey)
      .set({ response_body: sql`'AAAA' || substr(response_body, 5)` })
      .where(eq(idempotencyKey.key, hashed("secret-key-1")));
    const tampered = await post("/test/count", { n: 424242 }, { "idempotency-key": "secret-key-1" });
    expect(tampered.statusCode).toBe(409);
    expect(tampered.json().type).toBe("conflict");
  });

  it("treats a body with the same content in another key order as the same request", async () => {
    await post("/test/count", { n: 2 }, { "idempotency-key": "order-1" });
    const again = await t.app.inject({
      method: "POST",
      url: "/test/count",
      headers: { ...admin, "idempotency-key": "order-1", "content-type": "application/json" },
      payload: '{ "n" : 2 }',
    });
    expect(again.headers["idempotent-replayed"]).toBe("true");
  });

  it("treats one route spelled two ways as the same request, another query or route parameter as another", async () => {
    const before = runs;
    await post("/test/count?tag=a", { n: 5 }, { "idempotency-key": "spelled-1" });
    const encoded = await post("/%74est/c%6Funt?tag=a", { n: 5 }, { "idempotency-key": "spelled-1" });
    expect(encoded.headers["idempotent-replayed"]).toBe("true");
    expect(runs).toBe(before + 1);
    expect((await post("/test/count?tag=b", { n: 5 }, { "idempotency-key": "spelled-1" })).statusCode).toBe(409);
    expect(runs).toBe(before + 1);
  });

  it("claims nothing for a request no route takes", async () => {
    expect((await post("/test/nothing", { n: 1 }, { "idempotency-key": "unrouted-1" })).statusCode).toBe(404);
    expect(await keyRows("unrouted-1")).toEqual([]);
  });

  it("answers 409 conflict when the key is reused with another body or path, and runs nothing", async () => {
    await post("/test/count", { n: 3 }, { "idempotency-key": "changed-1" });
    const before = runs;
    const changed = await post("/test/count", { n: 4 }, { "idempotency-key": "changed-1" });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toEqual({
      type: "conflict",
      message: "This Idempotency-Key was already used with a different request",
    });
    const otherPath = await post("/test/slow", { n: 3 }, { "idempotency-key": "changed-1" });
    expect(otherPath.statusCode).toBe(409);
    expect(runs).toBe(before);
  });

  it("answers 409 conflict to a repeat while the first request still runs, then replays", async () => {
    const begun = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = post("/test/slow", {}, { "idempotency-key": "slow-1" });
    await begun;
    const concurrent = await post("/test/slow", {}, { "idempotency-key": "slow-1" });
    expect(concurrent.statusCode).toBe(409);
    expect(concurrent.json().type).toBe("conflict");
    expect(concurrent.json().message).toMatch(/still being processed/);
    release();
    expect((await first).json()).toEqual({ done: true });
    const before = runs;
    const replay = await post("/test/slow", {}, { "idempotency-key": "slow-1" });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ done: true });
    expect(runs).toBe(before);
  });

  it("lets exactly one of many simultaneous requests with one key run", async () => {
    const before = runs;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post("/test/count", { n: 5 }, { "idempotency-key": "race-1" })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(runs).toBe(before + 1);
    // Every 200 is the one response.
    expect(new Set(results.filter((r) => r.statusCode === 200).map((r) => r.body)).size).toBe(1);
  });

  it("does not store a 5xx, so a retry runs again", async () => {
    failNext = true;
    const failed = await post("/test/count", { n: 6 }, { "idempotency-key": "fail-1" });
    expect(failed.statusCode).toBe(500);
    expect(await keyRows("fail-1")).toHaveLength(0);
    const before = runs;
    const retried = await post("/test/count", { n: 6 }, { "idempotency-key": "fail-1" });
    expect(retried.statusCode).toBe(200);
    expect(runs).toBe(before + 1);
  });

  it("stores a 4xx the handler answered and replays it", async () => {
    const first = await post("/test/count", { n: -1 }, { "idempotency-key": "bad-1" });
    expect(first.statusCode).toBe(400);
    const before = runs;
    const again = await post("/test/count", { n: -1 }, { "idempotency-key": "bad-1" });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ type: "invalid_data", message: "n must not be negative" });
    expect(runs).toBe(before);
  });

  it("stores nothing for a request refused before it ran (schema, authentication)", async () => {
    const invalid = await post("/test/count", { n: "x" }, { "idempotency-key": "schema-1" });
    expect(invalid.statusCode).toBe(400);
    expect(await keyRows("schema-1")).toHaveLength(0);
    expect((await post("/test/count", { n: 7 }, { "idempotency-key": "schema-1" })).statusCode).toBe(200);

    const anonymous = await t.app.inject({
      method: "POST",
      url: "/admin/sales-channels",
      payload: { name: "x" },
      headers: { "idempotency-key": "auth-1" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await keyRows("auth-1")).toHaveLength(0);
  });

  it("rejects a malformed key with 400 invalid_data", async () => {
    for (const key of ["x".repeat(256), "has space", "ünïcode"]) {
      const res = await post("/test/count", { n: 8 }, { "idempotency-key": key });
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
  });

  it("scopes keys to the caller", async () => {
    const mine = await post("/test/count", { n: 9 }, { "idempotency-key": "shared-1" });
    const other = await t.app.inject({
      method: "POST",
      url: "/test/count",
      payload: { n: 9 },
      headers: { ...(await t.adminHeaders("user_other")), "idempotency-key": "shared-1" },
    });
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    expect(other.json().runs).toBe(mine.json().runs + 1);

    const anon = (ip: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: "POST",
        url: "/test/count",
        payload: { n: 9 },
        remoteAddress: ip,
        headers: { "idempotency-key": "anon-1", ...headers },
      });
    const a = await anon("10.0.0.1");
    expect((await anon("10.0.0.1")).headers["idempotent-replayed"]).toBe("true");
    expect((await anon("10.0.0.2")).json().runs).toBe(a.json().runs + 1);
    expect(
      (await anon("10.0.0.1", { "x-publishable-api-key": "pk_other" })).headers["idempotent-replayed"],
    ).toBeUndefined();
  });

  it("runs every request without a key", async () => {
    const before = runs;
    await post("/test/count", { n: 10 });
    await post("/test/count", { n: 10 });
    expect(runs).toBe(before + 2);
  });

  it("makes a real create idempotent: one sales channel for two posts", async () => {
    const first = await post("/admin/sales-channels", { name: "Once" }, { "idempotency-key": "sc-1" });
    const second = await post("/admin/sales-channels", { name: "Once" }, { "idempotency-key": "sc-1" });
    expect(second.json().sales_channel.id).toBe(first.json().sales_channel.id);
    const list = await t.app.inject({ method: "GET", url: "/admin/sales-channels?name=Once", headers: admin });
    expect(list.json().count).toBe(1);
  });

  it("keeps keys 24 hours; expired ones are purged and can be used again", async () => {
    await post("/test/count", { n: 11 }, { "idempotency-key": "old-1" });
    const [row] = await keyRows("old-1");
    expect(row!.expires_at.getTime() - row!.created_at.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    await t.database.db
      .update(idempotencyKey)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKey.key, hashed("old-1")));
    // An expired key is taken over even before the purge runs.
    const before = runs;
    expect((await post("/test/count", { n: 12 }, { "idempotency-key": "old-1" })).statusCode).toBe(200);
    expect(runs).toBe(before + 1);
    await t.database.db
      .update(idempotencyKey)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKey.key, hashed("old-1")));
    expect(await purgeExpiredIdempotencyKeys(t.database.db)).toBe(1);
    expect(await keyRows("old-1")).toHaveLength(0);
    expect(await keyRows("replay-1")).toHaveLength(1);
  });

  it("takes over a key left running by a dead process after the stale limit", async () => {
    const scopeRows = await keyRows("replay-1");
    const scope = scopeRows[0]!.scope;
    await post("/test/count", { n: 13 }, { "idempotency-key": "stale-1" });
    await t.database.db
      .update(idempotencyKey)
      .set({ state: "running", locked_at: sql`now() - interval '10 minutes'` })
      .where(and(eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, hashed("stale-1"))));
    const before = runs;
    expect((await post("/test/count", { n: 13 }, { "idempotency-key": "stale-1" })).statusCode).toBe(200);
    expect(runs).toBe(before + 1);
  });
});
