import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { failure, useTestDatabase } from "@kasse/db/testing";
import { INVITE_TTL_MS, createInviteService } from "./invites";
import { invite } from "./schema";
import { createUserService } from "./service";

const database = useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const invites = createInviteService();

describe("invite service", () => {
  it("stores a hash of a 256-bit secret, finds the invite by the secret, and lets it be claimed once", async () => {
    const { invite: created, secret } = await invites.create({ email: "Ana@Example.com", metadata: { a: 1 } });
    expect(created).toMatchObject({ email: "ana@example.com", accepted: false, metadata: { a: 1 } });
    expect(created).not.toHaveProperty("token_hash");
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(created.expires_at.getTime() - created.created_at.getTime()).toBeGreaterThan(INVITE_TTL_MS - 5_000);
    const rows = await queryRows(database.db, sql`select * from invite where id = ${created.id}`);
    expect(JSON.stringify(rows)).not.toContain(secret);

    expect(await invites.findOpen(secret)).toMatchObject({ id: created.id });
    expect(await invites.findOpen(`${secret}x`)).toBeNull();
    const [first, second] = await Promise.all([invites.claim(created.id), invites.claim(created.id)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await invites.findOpen(secret)).toBeNull();
    await invites.unclaim(created.id);
    expect(await invites.findOpen(secret)).toMatchObject({ id: created.id, accepted: false });
  });

  it("refuses a second live invite and an existing user's email; resend replaces secret and expiry", async () => {
    await createUserService().create({ email: "user@example.com" });
    expect((await failure(invites.create({ email: "USER@example.com" }))).type).toBe("conflict");
    const { invite: created, secret } = await invites.create({ email: "bo@example.com" });
    expect((await failure(invites.create({ email: "bo@example.com" }))).type).toBe("conflict");

    await database.db
      .update(invite)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(invite.id, created.id));
    expect(await invites.findOpen(secret)).toBeNull();
    expect(await invites.claim(created.id)).toBeNull();
    const resent = await invites.resend(created.id);
    expect(resent.secret).not.toBe(secret);
    expect(resent.invite.expires_at.getTime()).toBeGreaterThan(Date.now() + INVITE_TTL_MS - 5_000);
    expect(await invites.findOpen(secret)).toBeNull();
    expect(await invites.findOpen(resent.secret)).toMatchObject({ id: created.id });

    await invites.delete(created.id);
    expect(await invites.findOpen(resent.secret)).toBeNull();
    expect((await failure(invites.retrieve(created.id))).type).toBe("not_found");
    expect((await failure(invites.resend(created.id))).type).toBe("not_found");
    expect((await failure(invites.delete(created.id))).type).toBe("not_found");
    expect((await invites.create({ email: "bo@example.com" })).invite.id).not.toBe(created.id);
  });
});
