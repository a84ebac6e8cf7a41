import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KasseError } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { hashParams, hashPassword, verifyPassword } from "./password";
import { createAuthService, type AuthService } from "./service";

let database: TestDatabase;
let auth: AuthService;
beforeAll(async () => {
  database = await createTestDatabase();
  auth = createAuthService(database.db, { scrypt: { logN: 4 } });
});
afterAll(() => database.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: KasseError) => error,
  );
const body = (email: string, password: string) => ({ body: { email, password } });

describe("password hashing", () => {
  it("stores scrypt with its parameters and a per-hash salt, and verifies in constant time", async () => {
    const a = await hashPassword("secret", { logN: 4, r: 8, p: 1 });
    const b = await hashPassword("secret", { logN: 4, r: 8, p: 1 });
    expect(a).toMatch(/^scrypt\$4\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(hashParams(a)).toEqual({ logN: 4, r: 8, p: 1 });
    expect(await verifyPassword("secret", a)).toBe(true);
    expect(await verifyPassword("Secret", a)).toBe(false);
    expect(await verifyPassword("secret", "plain-text")).toBe(false);
    expect(await verifyPassword("secret", "scrypt$4$8$1$c2FsdA==$c2hvcnQ=")).toBe(false);
  });

  it("defaults to the contract's cost (logN 15, r 8, p 1) within Node's memory limit", async () => {
    const hash = await hashPassword("pw");
    expect(hashParams(hash)).toEqual({ logN: 15, r: 8, p: 1 });
    expect(await verifyPassword("pw", hash)).toBe(true);
  });
});

describe("emailpass provider", () => {
  it("registers, then authenticates with the right password only; emails are case-insensitive", async () => {
    const identity = await auth.register("emailpass", body("Ada@Example.com", "pw-1"));
    expect(identity.provider_identities[0]).toMatchObject({ provider: "emailpass", entity_id: "ada@example.com" });
    expect(identity.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$4\$/);
    const result = await auth.authenticate("emailpass", body("ada@example.com ", "pw-1"));
    expect(result.identity?.id).toBe(identity.id);
  });

  it("answers an unknown email and a wrong password with the same invalid_data error", async () => {
    await auth.register("emailpass", body("bob@example.com", "right"));
    const wrong = await failure(auth.authenticate("emailpass", body("bob@example.com", "wrong")));
    const unknown = await failure(auth.authenticate("emailpass", body("nobody@example.com", "right")));
    for (const error of [wrong, unknown]) {
      expect(error.type).toBe("invalid_data");
      expect(error.message).toBe("Invalid email or password");
    }
  });

  it("spends the same scrypt work on an unknown email as on a wrong password", async () => {
    const slow = createAuthService(database.db, { scrypt: { logN: 13 } });
    await slow.register("emailpass", body("timing@example.com", "right"));
    const median = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await failure(slow.authenticate("emailpass", body(email, "wrong")));
        times.push(performance.now() - start);
      }
      return times.sort((x, y) => x - y)[2]!;
    };
    // Without the dummy hash an unknown email would answer an order of magnitude faster; the bounds leave room for a busy machine.
    await median("nobody-warmup@example.com"); // the dummy hash is made once, on first use
    const known = await median("timing@example.com");
    const unknown = await median("nobody@example.com");
    expect(unknown / known).toBeGreaterThan(0.25);
    expect(unknown / known).toBeLessThan(4);
  });

  it("refuses a second registration of one email, even under a race", async () => {
    await auth.register("emailpass", body("dup@example.com", "pw"));
    const again = await failure(auth.register("emailpass", body("DUP@example.com", "other")));
    expect(again).toMatchObject({ type: "unauthorized", message: "Identity with email already exists" });
    const racing = await Promise.allSettled([auth.register("emailpass", body("race@example.com", "a")), auth.register("emailpass", body("race@example.com", "b"))]);
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((racing.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.message).toBe("Identity with email already exists");
  });

  it("upgrades a hash made with other parameters on the next sign-in", async () => {
    const old = createAuthService(database.db, { scrypt: { logN: 3 } });
    const identity = await old.register("emailpass", body("upgrade@example.com", "pw"));
    expect(identity.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$3\$/);
    await auth.authenticate("emailpass", body("upgrade@example.com", "pw"));
    const after = await auth.retrieve(identity.id);
    expect(after.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$4\$/);
    expect((await auth.authenticate("emailpass", body("upgrade@example.com", "pw"))).identity?.id).toBe(identity.id);
  });

  it("updates the password of the caller's own identity only", async () => {
    const mine = await auth.register("emailpass", body("mine@example.com", "old"));
    const theirs = await auth.register("emailpass", body("theirs@example.com", "old"));
    const denied = await failure(auth.update("emailpass", { ...body("theirs@example.com", "new"), authIdentityId: mine.id }));
    expect(denied.type).toBe("unauthorized");
    expect((await auth.authenticate("emailpass", body("theirs@example.com", "old"))).identity?.id).toBe(theirs.id);
    await auth.update("emailpass", { ...body("mine@example.com", "new"), authIdentityId: mine.id });
    expect((await failure(auth.authenticate("emailpass", body("mine@example.com", "old")))).type).toBe("invalid_data");
    expect((await auth.authenticate("emailpass", body("mine@example.com", "new"))).identity?.id).toBe(mine.id);
  });

  it("rejects missing credentials and unknown providers", async () => {
    expect((await failure(auth.authenticate("emailpass", { body: { email: "x@example.com" } }))).type).toBe("invalid_data");
    expect((await failure(auth.validateCallback("emailpass", { body: {} }))).type).toBe("invalid_data");
    expect((await failure(auth.authenticate("nope", body("x@example.com", "pw")))).type).toBe("not_found");
  });
});

describe("actors and claims", () => {
  it("links one actor per type, refuses another, and unlinks", async () => {
    const identity = await auth.register("emailpass", body("link@example.com", "pw"));
    const linked = await auth.linkActor(identity.id, "user", "user_1");
    expect(linked.app_metadata).toEqual({ user_id: "user_1" });
    await auth.linkActor(identity.id, "user", "user_1");
    expect((await failure(auth.linkActor(identity.id, "user", "user_2"))).type).toBe("conflict");
    await auth.linkActor(identity.id, "customer", "cus_1");
    expect((await auth.retrieve(identity.id)).app_metadata).toEqual({ user_id: "user_1", customer_id: "cus_1" });
    await auth.unlinkActor(identity.id, "user");
    expect((await auth.retrieve(identity.id)).app_metadata).toEqual({ customer_id: "cus_1" });
    expect((await failure(auth.linkActor("authid_missing", "user", "user_1"))).type).toBe("not_found");
  });

  it("signs a user in only when linked; a customer without one gets a registration token", async () => {
    await auth.register("emailpass", body("claims@example.com", "pw"));
    const asUser = await failure(auth.login("user", "emailpass", body("claims@example.com", "pw")));
    expect(asUser).toMatchObject({ type: "invalid_data", message: "Invalid email or password" });
    const asCustomer = await auth.login("customer", "emailpass", body("claims@example.com", "pw"));
    expect(asCustomer).toMatchObject({ claims: { actor_id: "", actor_type: "customer" } });
  });

  it("refreshes claims from the identity as it is now", async () => {
    const identity = await auth.register("emailpass", body("refresh@example.com", "pw"));
    const registering = { actor_id: "", actor_type: "customer", auth_identity_id: identity.id, app_metadata: {} };
    await auth.linkActor(identity.id, "customer", "cus_9");
    expect(await auth.refresh(registering)).toMatchObject({ actor_id: "cus_9", app_metadata: { customer_id: "cus_9" } });
    await auth.unlinkActor(identity.id, "customer");
    expect((await failure(auth.refresh({ ...registering, actor_id: "cus_9" }))).type).toBe("unauthorized");
    await auth.delete(identity.id);
    expect((await failure(auth.refresh(registering))).type).toBe("unauthorized");
    expect(await auth.findByProvider("emailpass", "refresh@example.com")).toBeNull();
  });
});
