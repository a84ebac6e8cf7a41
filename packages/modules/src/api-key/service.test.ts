import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { hashSecret } from "@kasse/core";
import { createApiKeyService } from "./service";

const database = useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const keys = createApiKeyService();

describe("api key service", () => {
  it("takes a given token of the key's type and refuses a malformed one", async () => {
    const given = await keys.create({ title: "Fixed", type: "publishable" }, "seed", {
      token: "pk_fixed-token_for_a_storefront",
    });
    expect(given.token).toBe("pk_fixed-token_for_a_storefront");
    expect((await keys.resolvePublishable("pk_fixed-token_for_a_storefront"))?.id).toBe(given.id);
    for (const token of ["sk_fixed-token_for_a_storefront", "pk_short", "pk_with spaces in the token"]) {
      expect((await failure(keys.create({ title: "Bad", type: "publishable" }, "seed", { token }))).type, token).toBe(
        "invalid_data",
      );
    }
  });

  it("creates a secret key whose token is returned once and stored only as a hash", async () => {
    const created = await keys.create({ title: "CI", type: "secret" }, "user_1");
    expect(created.token).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(created.redacted).toBe(`${created.token.slice(0, 6)}***${created.token.slice(-3)}`);
    expect(created).toMatchObject({ title: "CI", type: "secret", created_by: "user_1", revoked_at: null });
    const [row] = await queryRows<{ token: string | null; token_hash: string }>(
      database.db,
      sql`select token, token_hash from api_key where id = ${created.id}`,
    );
    expect(row).toEqual({ token: null, token_hash: hashSecret(created.token) });
    const again = await keys.retrieve(created.id);
    expect(again).not.toHaveProperty("token");
    expect(again).not.toHaveProperty("token_hash");
    expect(await keys.verifySecret(created.token)).toEqual({ id: created.id, created_by: "user_1" });
    expect(await keys.verifySecret(`${created.token}x`)).toBeNull();

    // Rotation: a second secret key while the first is active; revoking one leaves the other working.
    const next = await keys.create({ title: "Second", type: "secret" }, "user_1");
    expect(await keys.verifySecret(created.token)).toMatchObject({ id: created.id });
    expect(await keys.verifySecret(next.token)).toMatchObject({ id: next.id });
    await keys.revoke(created.id, "user_1");
    expect(await keys.verifySecret(created.token)).toBeNull();
    expect(await keys.verifySecret(next.token)).toMatchObject({ id: next.id });
    await keys.revoke(next.id, "user_1");
  });

  it("revokes once, deletes only revoked keys, and hides deleted ones", async () => {
    const key = await keys.create({ title: "Storefront", type: "publishable" }, "user_1");
    expect((await failure(keys.delete(key.id, "user_1"))).type).toBe("not_allowed");
    const revoked = await keys.revoke(key.id, "user_2");
    expect(revoked.revoked_by).toBe("user_2");
    expect(revoked.revoked_at).toBeInstanceOf(Date);
    expect((await failure(keys.revoke(key.id, "user_2"))).type).toBe("invalid_data");
    await keys.delete(key.id, "user_1");
    expect((await failure(keys.retrieve(key.id))).type).toBe("not_found");
    expect((await failure(keys.revoke("apk_missing", "u"))).type).toBe("not_found");
    expect((await failure(keys.delete("apk_missing", "u"))).type).toBe("not_found");
  });

  it("lets only a user make, rename, revoke or delete a secret key; a key may manage publishable keys", async () => {
    const secret = await keys.create({ title: "Ops", type: "secret" }, "user_1");
    const refused = async (attempt: Promise<unknown>) => {
      const error = await failure(attempt);
      expect(error).toMatchObject({ type: "not_allowed", message: expect.stringMatching(/admin user/) });
    };
    await refused(keys.create({ title: "Heir", type: "secret" }, secret.id));
    await refused(keys.update(secret.id, { title: "Mine" }, secret.id));
    await refused(keys.revoke(secret.id, secret.id));
    await refused(keys.delete(secret.id, secret.id));
    expect(await keys.retrieve(secret.id)).toMatchObject({ title: "Ops", revoked_at: null });
    expect((await keys.list({ type: "secret", q: "Heir" }, { limit: 10, offset: 0 })).count).toBe(0);
    // Publishable keys are not credentials.
    const web = await keys.create({ title: "Shop", type: "publishable" }, secret.id);
    expect((await keys.update(web.id, { title: "Shop 2" }, secret.id)).title).toBe("Shop 2");
    await keys.revoke(web.id, secret.id);
    await keys.delete(web.id, secret.id);
    await keys.revoke(secret.id, "user_1");
  });

  it("a key made by a key (before that was refused) works only while its maker does, and names the user at the root", async () => {
    const root = await keys.create({ title: "Root", type: "secret" }, "user_9");
    // What a key could do before: rows written as the old route did.
    const child = await keys.create({ title: "Child", type: "secret" }, "user_9");
    const grandchild = await keys.create({ title: "Grandchild", type: "secret" }, "user_9");
    await database.db.execute(sql`update api_key set created_by = ${root.id} where id = ${child.id}`);
    await database.db.execute(sql`update api_key set created_by = ${child.id} where id = ${grandchild.id}`);
    expect(await keys.verifySecret(grandchild.token)).toEqual({ id: grandchild.id, created_by: "user_9" });
    expect(await keys.verifySecret(child.token)).toEqual({ id: child.id, created_by: "user_9" });
    await keys.revoke(root.id, "user_9");
    expect(await keys.verifySecret(child.token)).toBeNull();
    expect(await keys.verifySecret(grandchild.token)).toBeNull();
  });

  it("links publishable keys to sales channels and resolves them by token", async () => {
    const key = await keys.create({ title: "Web", type: "publishable" }, "user_1");
    expect(key.token).toMatch(/^pk_[0-9a-f]{64}$/);
    expect((await keys.retrieve(key.id)).token).toBe(key.token);
    const linked = await keys.updateSalesChannels(key.id, { add: ["sc_1", "sc_2", "sc_1"] });
    expect(linked.sales_channels).toEqual([{ id: "sc_1" }, { id: "sc_2" }]);
    // Re-adding a linked channel is a no-op; removing an unlinked one too.
    const moved = await keys.updateSalesChannels(key.id, { add: ["sc_2"], remove: ["sc_1"] });
    expect(moved.sales_channels).toEqual([{ id: "sc_2" }]);
    const after = await keys.updateSalesChannels(key.id, { remove: ["sc_1"] });
    expect(after.sales_channels).toEqual([{ id: "sc_2" }]);
    expect(await keys.resolvePublishable(key.token)).toEqual({ id: key.id, sales_channel_ids: ["sc_2"] });
    expect(await keys.resolvePublishable("pk_unknown")).toBeNull();

    const secret = await keys.create({ title: "S", type: "secret" }, "user_1");
    expect((await failure(keys.updateSalesChannels(secret.id, { add: ["sc_1"] }))).type).toBe("invalid_data");
    expect(await keys.resolvePublishable(secret.token)).toBeNull();
    expect(await keys.verifySecret(key.token)).toBeNull();
    await keys.revoke(secret.id, "user_1");

    await keys.revoke(key.id, "user_1");
    expect(await keys.resolvePublishable(key.token)).toBeNull();
  });

  it("refuses adding and removing the same channel at once, writing nothing", async () => {
    const key = await keys.create({ title: "Both", type: "publishable" }, "user_1");
    expect((await failure(keys.updateSalesChannels(key.id, { add: ["sc_x"], remove: ["sc_x"] }))).type).toBe(
      "invalid_data",
    );
    expect((await keys.retrieve(key.id)).sales_channels).toEqual([]);
  });

  it("revocation takes effect at revoked_at: a key revoked in the future still authenticates until then", async () => {
    const secret = await keys.create({ title: "Later", type: "secret" }, "user_1");
    const publishable = await keys.create({ title: "Later", type: "publishable" }, "user_1");
    const ids = [secret.id, publishable.id];
    await database.db.execute(sql`update api_key set revoked_at = now() + interval '1 hour' where id in ${ids}`);
    expect(await keys.verifySecret(secret.token)).toEqual({ id: secret.id, created_by: "user_1" });
    expect((await keys.resolvePublishable(publishable.token))?.id).toBe(publishable.id);
    await database.db.execute(sql`update api_key set revoked_at = now() - interval '1 second' where id in ${ids}`);
    expect(await keys.verifySecret(secret.token)).toBeNull();
    expect(await keys.resolvePublishable(publishable.token)).toBeNull();
    await keys.delete(secret.id, "user_1");
    expect((await failure(keys.retrieve(secret.id))).type).toBe("not_found");
  });

  it("lists with filters and paging, channels loaded per page", async () => {
    const { items, count } = await keys.list({ type: "publishable", q: "web" }, { limit: 10, offset: 0 });
    expect(count).toBe(1);
    expect(items[0]).toMatchObject({ title: "Web", sales_channels: [{ id: "sc_2" }] });
    const revoked = await keys.list({ revoked: true }, { limit: 100, offset: 0 });
    expect(revoked.items.every((k) => k.revoked_at !== null)).toBe(true);
    const secrets = await keys.list({ type: "secret" }, { limit: 1, offset: 0, order: "-created_at" });
    expect(secrets.count).toBe(7);
    expect(secrets.items).toHaveLength(1);
    expect(secrets.items[0]).not.toHaveProperty("token");
    expect((await failure(keys.list({}, { limit: 1, offset: 0, order: "token_hash" }))).type).toBe("invalid_data");
  });
});
