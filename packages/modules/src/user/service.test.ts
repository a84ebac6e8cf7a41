import { describe, expect, it } from "vitest";
import { failure, useTestDatabase, lazy } from "@kasse/db/testing";
import { createUserService } from "./service";

const database = useTestDatabase();
const users = lazy(() => createUserService(database.db));

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
});
