import { describe, expect, it } from "vitest";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { hashParams, hashPassword, verifyPassword } from "./password";
import { createAuthService } from "./service";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const auth = createAuthService({ scrypt: { logN: 4 } });

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
    const identity = await auth.register("emailpass", body("Ada@Example.com", "pw-1-password"));
    expect(identity.provider_identities[0]).toMatchObject({ provider: "emailpass", entity_id: "ada@example.com" });
    expect(identity.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$4\$/);
    const result = await auth.authenticate("emailpass", body("ada@example.com ", "pw-1-password"));
    expect(result.identity?.id).toBe(identity.id);
  });

  it("answers an unknown email and a wrong password with the same invalid_data error", async () => {
    await auth.register("emailpass", body("bob@example.com", "right-password"));
    const wrong = await failure(auth.authenticate("emailpass", body("bob@example.com", "wrong-password")));
    const unknown = await failure(auth.authenticate("emailpass", body("nobody@example.com", "right-password")));
    for (const error of [wrong, unknown]) {
      expect(error.type).toBe("invalid_data");
      expect(error.message).toBe("Invalid email or password");
    }
  });

  it("spends the same scrypt work on an unknown email as on a wrong password", async () => {
    const slow = createAuthService({ scrypt: { logN: 13 } });
    await slow.register("emailpass", body("timing@example.com", "right-password"));
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
    await auth.register("emailpass", body("dup@example.com", "pw-password"));
    const again = await failure(auth.register("emailpass", body("DUP@example.com", "other-password")));
    expect(again).toMatchObject({ type: "unauthorized", message: "Identity with email already exists" });
    const racing = await Promise.allSettled([
      auth.register("emailpass", body("race@example.com", "a-password")),
      auth.register("emailpass", body("race@example.com", "b-password")),
    ]);
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((racing.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.message).toBe(
      "Identity with email already exists",
    );
  });

  it("upgrades a hash made with other parameters on the next sign-in", async () => {
    const old = createAuthService({ scrypt: { logN: 3 } });
    const identity = await old.register("emailpass", body("upgrade@example.com", "pw-password"));
    expect(identity.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$3\$/);
    await auth.authenticate("emailpass", body("upgrade@example.com", "pw-password"));
    const after = await auth.retrieve(identity.id);
    expect(after.provider_identities[0]!.provider_metadata!.password).toMatch(/^scrypt\$4\$/);
    expect((await auth.authenticate("emailpass", body("upgrade@example.com", "pw-password"))).identity?.id).toBe(
      identity.id,
    );
  });

  it("updates the password of the caller's own identity only", async () => {
    const mine = await auth.register("emailpass", body("mine@example.com", "old-password"));
    const theirs = await auth.register("emailpass", body("theirs@example.com", "old-password"));
    const denied = await failure(
      auth.update("emailpass", { ...body("theirs@example.com", "new-password"), authIdentityId: mine.id }),
    );
    expect(denied.type).toBe("unauthorized");
    expect((await auth.authenticate("emailpass", body("theirs@example.com", "old-password"))).identity?.id).toBe(
      theirs.id,
    );
    await auth.update("emailpass", { ...body("mine@example.com", "new-password"), authIdentityId: mine.id });
    expect((await failure(auth.authenticate("emailpass", body("mine@example.com", "old-password")))).type).toBe(
      "invalid_data",
    );
    expect((await auth.authenticate("emailpass", body("mine@example.com", "new-password"))).identity?.id).toBe(mine.id);
  });

  it("rejects missing credentials and unknown providers", async () => {
    expect((await failure(auth.authenticate("emailpass", { body: { email: "x@example.com" } }))).type).toBe(
      "invalid_data",
    );
    expect((await failure(auth.validateCallback("emailpass", { body: {} }))).type).toBe("invalid_data");
    expect((await failure(auth.authenticate("nope", body("x@example.com", "pw-password")))).type).toBe("not_found");
  });
});

describe("actors and claims", () => {
  it("links one actor per type, refuses another, and unlinks", async () => {
    const identity = await auth.register("emailpass", body("link@example.com", "pw-password"));
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
    await auth.register("emailpass", body("claims@example.com", "pw-password"));
    const asUser = await failure(auth.login("user", "emailpass", body("claims@example.com", "pw-password")));
    expect(asUser).toMatchObject({ type: "invalid_data", message: "Invalid email or password" });
    const asCustomer = await auth.login("customer", "emailpass", body("claims@example.com", "pw-password"));
    expect(asCustomer).toMatchObject({ claims: { actor_id: "", actor_type: "customer" } });
  });

  it("refreshes claims from the identity as it is now", async () => {
    const identity = await auth.register("emailpass", body("refresh@example.com", "pw-password"));
    const registering = { actor_id: "", actor_type: "customer", auth_identity_id: identity.id, app_metadata: {} };
    await auth.linkActor(identity.id, "customer", "cus_9");
    expect(await auth.refresh(registering)).toMatchObject({
      actor_id: "cus_9",
      app_metadata: { customer_id: "cus_9" },
    });
    await auth.unlinkActor(identity.id, "customer");
    expect((await failure(auth.refresh({ ...registering, actor_id: "cus_9" }))).type).toBe("unauthorized");
    await auth.delete(identity.id);
    expect((await failure(auth.refresh(registering))).type).toBe("unauthorized");
    expect(await auth.findByProvider("emailpass", "refresh@example.com")).toBeNull();
  });
});

describe("sessions", () => {
  it("a token's claims stay alive until the password changes, the actor is unlinked or the identity goes", async () => {
    const identity = await auth.register("emailpass", body("session@example.com", "pw-1-password"));
    await auth.linkActor(identity.id, "customer", "cus_s");
    const { claims } = (await auth.login("customer", "emailpass", body("session@example.com", "pw-1-password"))) as {
      claims: Parameters<typeof auth.sessionAlive>[0];
    };
    expect(claims).toMatchObject({ actor_id: "cus_s", credentials_version: 1 });
    expect(await auth.sessionAlive(claims)).toBe(true);
    // Another actor id, another identity, another version: not this session.
    expect(await auth.sessionAlive({ ...claims, actor_id: "cus_other" })).toBe(false);
    expect(await auth.sessionAlive({ ...claims, auth_identity_id: "authid_missing" })).toBe(false);
    expect(await auth.sessionAlive({ ...claims, credentials_version: 2 })).toBe(false);

    // A password change ends it; the next sign-in carries the new version.
    await auth.update("emailpass", { ...body("session@example.com", "pw-2-password"), authIdentityId: identity.id });
    expect(await auth.sessionAlive(claims)).toBe(false);
    const { claims: next } = (await auth.login(
      "customer",
      "emailpass",
      body("session@example.com", "pw-2-password"),
    )) as {
      claims: typeof claims;
    };
    expect(next.credentials_version).toBe(2);
    expect(await auth.sessionAlive(next)).toBe(true);
    // A rehash on sign-in (same password, new cost) is not a credential change.
    const cheaper = createAuthService({ scrypt: { logN: 5 } });
    await cheaper.login("customer", "emailpass", body("session@example.com", "pw-2-password"));
    expect(await auth.sessionAlive(next)).toBe(true);

    await auth.unlinkActor(identity.id, "customer");
    expect(await auth.sessionAlive(next)).toBe(false);
    // A registration token (no actor) lives as long as its identity and credentials.
    const registration = { ...next, actor_id: "" };
    expect(await auth.sessionAlive(registration)).toBe(true);
    await auth.delete(identity.id);
    expect(await auth.sessionAlive(registration)).toBe(false);
  });

  it("disables only identities left with no actor, enables them back, and purges only disabled ones", async () => {
    const lone = await auth.register("emailpass", body("lone@example.com", "pw-password"));
    const shared = await auth.register("emailpass", body("shared@example.com", "pw-password"));
    await auth.linkActor(shared.id, "customer", "cus_shared");
    const registration = { actor_id: "", actor_type: "user", auth_identity_id: lone.id, credentials_version: 1 };

    expect(await auth.disableOrphans([lone.id, shared.id, "authid_missing"])).toEqual([lone.id]);
    expect(await auth.sessionAlive(registration)).toBe(false);
    expect(await auth.findByProvider("emailpass", "lone@example.com")).toBeNull();
    expect((await failure(auth.login("customer", "emailpass", body("lone@example.com", "pw-password")))).message).toBe(
      "Invalid email or password",
    );
    // Purging a live identity does nothing.
    await auth.purgeDisabled([shared.id]);
    expect((await auth.retrieve(shared.id)).app_metadata).toEqual({ customer_id: "cus_shared" });

    await auth.enable([lone.id]);
    expect(await auth.sessionAlive(registration)).toBe(true);
    await auth.disableOrphans([lone.id]);
    await auth.purgeDisabled([lone.id]);
    expect((await failure(auth.retrieve(lone.id))).type).toBe("not_found");
    // Its email is free to register again.
    expect((await auth.register("emailpass", body("lone@example.com", "pw-new-password"))).id).not.toBe(lone.id);
  });
});
