import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, type Engine } from "@kasse/workflows";
import { createAuthService } from "@kasse/modules/auth";
import { createCustomerService } from "@kasse/modules/customer";
import { registerCustomer } from "./register-customer";
import { createModules } from "@kasse/modules";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase();
let engine: Engine;
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const auth = createAuthService({ scrypt: { logN: 4 } });
beforeAll(async () => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
});

const count = async (table: string) =>
  (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

describe("registerCustomer", () => {
  it("one-call form: creates the identity and the customer, linked; the journal holds neither the password nor its hash", async () => {
    const { customer_id, auth_identity_id } = await registerCustomer(
      engine,
      { customer: { email: "Ana@Example.com", first_name: "Ana" }, password: "pw-plain-1" },
      { scryptLogN: 4 },
    );
    expect(await createCustomerService().retrieve(customer_id)).toMatchObject({
      email: "ana@example.com",
      has_account: true,
      first_name: "Ana",
    });
    const login = await auth.login("customer", "emailpass", {
      body: { email: "ana@example.com", password: "pw-plain-1" },
    });
    expect(login).toMatchObject({ claims: { actor_id: customer_id, auth_identity_id } });
    const journal = await queryRows(
      database.db,
      sql`select input from workflow_executions where workflow_id = 'register-customer'`,
    );
    expect(JSON.stringify(journal)).not.toContain("pw-plain-1");
    const [{ hash }] = (await queryRows<{ hash: string }>(
      database.db,
      sql`select provider_metadata->>'password' as hash from provider_identity where entity_id = 'ana@example.com'`,
    )) as [{ hash: string }];
    expect(hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(journal)).not.toContain(hash);
  });

  it("a taken email is conflict and undoes the identity it created", async () => {
    const identities = await count("auth_identity");
    const customers = await count("customer");
    // The customer row exists with an account, but not the identity: the customer step fails after the identity step.
    await createCustomerService().create({ email: "taken@example.com" }, { has_account: true });
    await expect(
      registerCustomer(
        engine,
        { customer: { email: "taken@example.com" }, password: "pw-long-enough" },
        { scryptLogN: 4 },
      ),
    ).rejects.toMatchObject({ type: "conflict" });
    expect(await count("auth_identity")).toBe(identities);
    expect(await count("customer")).toBe(customers + 1);
    // An email that already has an identity is conflict before anything is created.
    await expect(
      registerCustomer(
        engine,
        { customer: { email: "ana@example.com" }, password: "pw-long-enough" },
        { scryptLogN: 4 },
      ),
    ).rejects.toMatchObject({ type: "conflict", message: "An account with email ana@example.com already exists" });
    expect(await count("customer")).toBe(customers + 1);
  });

  it("registration-token form links the existing identity once; a second customer for it is conflict and removed", async () => {
    const identity = await auth.register("emailpass", {
      body: { email: "token@example.com", password: "pw-long-enough" },
    });
    const first = await registerCustomer(engine, {
      customer: { email: "token@example.com" },
      auth_identity_id: identity.id,
    });
    expect((await auth.retrieve(identity.id)).app_metadata).toEqual({ customer_id: first.customer_id });
    const customers = await count("customer");
    await expect(
      registerCustomer(engine, { customer: { email: "token2@example.com" }, auth_identity_id: identity.id }),
    ).rejects.toMatchObject({ type: "conflict" });
    expect(await count("customer")).toBe(customers);
  });

  it("registration-token form: only for the identity's own address; another one is not_allowed and creates nothing", async () => {
    const identity = await auth.register("emailpass", {
      body: { email: "mine@example.com", password: "pw-at-least-8" },
    });
    const customers = await count("customer");
    await expect(
      registerCustomer(engine, { customer: { email: "theirs@example.com" }, auth_identity_id: identity.id }),
    ).rejects.toMatchObject({ type: "not_allowed" });
    expect(await count("customer")).toBe(customers);
    expect((await auth.retrieve(identity.id)).app_metadata).toEqual({});
    await registerCustomer(engine, { customer: { email: "Mine@Example.com" }, auth_identity_id: identity.id });
    expect(await count("customer")).toBe(customers + 1);
  });
});
