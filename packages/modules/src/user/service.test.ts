import { describe, expect, it } from "vitest";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { createUserService } from "./service";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const users = createUserService();

describe("user service", () => {
  it("creates, retrieves, updates, lists and soft-deletes; emails are unique among live users", async () => {
    const ada = await users.create({ email: "Ada@Example.com", first_name: "Ada" });
    expect(ada).toMatchObject({ email: "ada@example.com", first_name: "Ada", last_name: null });
    expect(ada.id).toMatch(/^user_/);
    expect((await failure(users.create({ email: "ada@example.com" }))).type).toBe("conflict");
    expect((await users.retrieveByEmail("ADA@example.com"))?.id).toBe(ada.id);
    expect((await users.update(ada.id, { last_name: "Lovelace" })).last_name).toBe("Lovelace");
    await users.create({ email: "grace@example.com", first_name: "Grace" });
    expect((await users.list({ q: "lovelace" }, { limit: 10, offset: 0 })).items.map((u) => u.id)).toEqual([ada.id]);
    const page = await users.list({}, { limit: 1, offset: 1, order: "email" });
    expect(page).toMatchObject({ count: 2, items: [{ email: "grace@example.com" }] });
    await users.delete(ada.id);
    expect((await failure(users.retrieve(ada.id))).type).toBe("not_found");
    expect((await failure(users.delete(ada.id))).type).toBe("not_found");
    expect((await users.create({ email: "ada@example.com" })).id).not.toBe(ada.id);
  });

  it("undoes its steps: restore makes a deleted user live again, remove drops a new one's row", async () => {
    const lin = await users.create({ email: "lin@example.com" });
    await users.delete(lin.id);
    await users.restore(lin.id);
    expect((await users.retrieve(lin.id)).deleted_at).toBeNull();
    expect((await failure(users.create({ email: "lin@example.com" }))).type).toBe("conflict");
    await users.remove(lin.id);
    expect((await failure(users.retrieve(lin.id))).type).toBe("not_found");
    expect(await users.exists(lin.id)).toBe(false);
    expect((await users.create({ email: "lin@example.com" })).email).toBe("lin@example.com");
  });
});
