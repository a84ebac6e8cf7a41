import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { createEngine, REDACTED, type Engine } from "@kasse/workflows";
import { createAuthService } from "@kasse/modules/auth";
import { createUserService } from "@kasse/modules/user";
import { createUserAccount } from "./create-user-account";
import { createModules } from "@kasse/modules";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase();
let engine: Engine;
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const auth = createAuthService({ scrypt: { logN: 4 } });
beforeAll(async () => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
});

describe("createUserAccount", () => {
  it("creates a user and a linked emailpass identity the user can sign in with", async () => {
    const { user_id, auth_identity_id } = await createUserAccount(
      engine,
      { email: "Admin@Example.com", password: "s3cret-pass", first_name: "Ada" },
      { scryptLogN: 4 },
    );
    const user = await createUserService().retrieve(user_id);
    expect(user).toMatchObject({ email: "admin@example.com", first_name: "Ada" });
    const login = await auth.login("user", "emailpass", {
      body: { email: "admin@example.com", password: "s3cret-pass" },
    });
    expect(login).toEqual({
      claims: {
        actor_id: user_id,
        actor_type: "user",
        auth_identity_id,
        app_metadata: { user_id },
        credentials_version: 1,
      },
    });
    // The journal holds neither the password nor its hash (only the identity does).
    const [{ hash }] = (await queryRows<{ hash: string }>(
      database.db,
      sql`select provider_metadata->>'password' as hash from provider_identity where entity_id = 'admin@example.com'`,
    )) as [{ hash: string }];
    expect(hash).toMatch(/^scrypt\$/);
    const rows = await queryRows<{ input: unknown }>(
      database.db,
      sql`select input from workflow_executions where workflow_id = 'create-user-account'`,
    );
    expect(rows[0]!.input).toMatchObject({ email: "admin@example.com", password_hash: REDACTED });
    expect(JSON.stringify(rows)).not.toContain("s3cret-pass");
    expect(JSON.stringify(rows)).not.toContain(hash);
  });

  it("fails with conflict on a taken email and leaves nothing behind", async () => {
    await createUserAccount(engine, { email: "taken@example.com", password: "pw-long-enough" }, { scryptLogN: 4 });
    const count = async () =>
      (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from "user"`))[0]!.n;
    const before = await count();
    const error = await failure(
      createUserAccount(engine, { email: "TAKEN@example.com", password: "other-password" }, { scryptLogN: 4 }),
    );
    expect(error.type).toBe("conflict");
    expect(await count()).toBe(before);
  });

  it("undoes the identity when the user cannot be created", async () => {
    // A user row with the email but no identity: the identity step succeeds, the user step conflicts.
    await createUserService().create({ email: "orphan@example.com" });
    const error = await failure(
      createUserAccount(engine, { email: "orphan@example.com", password: "pw-long-enough" }, { scryptLogN: 4 }),
    );
    expect(error.type).toBe("conflict");
    expect(await auth.findByProvider("emailpass", "orphan@example.com")).toBeNull();
  });

  it("rejects a bad email or an empty password before doing anything", async () => {
    for (const email of ["not-an-email", "<script>x@shop.test", "a,b@example.com", "ana@example"])
      expect((await failure(createUserAccount(engine, { email, password: "long-enough-pw" }))).type).toBe(
        "invalid_data",
      );
    expect((await failure(createUserAccount(engine, { email: "ok@example.com", password: "" }))).type).toBe(
      "invalid_data",
    );
    expect(await createUserService().retrieveByEmail("ok@example.com")).toBeNull();
  });
});
