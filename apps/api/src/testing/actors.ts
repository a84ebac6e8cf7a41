import { eq } from "drizzle-orm";
import { actorKey } from "@kasse/modules/auth";
import { authIdentity } from "@kasse/modules/auth/tables";
import { user } from "@kasse/modules/user/tables";
import type { App } from "../app-type";

/**
 * `authorization` header of a signed-in `actorType` (`user` or `customer`) with id `actorId`,
 * backed by a real auth identity linked to that actor (created on first use, then reused), so the
 * token passes the auth plugin's check like a real sign-in's. For a user, the user row is created
 * too (email `<actorId>@kasse.test`); a customer's row is the test's to create when it needs one.
 * @example
 * const admin = await actorHeaders(app, "user", "user_1");
 */
export async function actorHeaders(
  app: App,
  actorType: "user" | "customer",
  actorId: string,
): Promise<Record<string, string>> {
  const db = app.infra.database.db;
  const id = `authid_test_${actorType}_${actorId}`;
  await db
    .insert(authIdentity)
    .values({ id, app_metadata: { [actorKey(actorType)]: actorId } })
    .onConflictDoNothing();
  if (actorType === "user")
    await db
      .insert(user)
      .values({ id: actorId, email: `${actorId}@kasse.test`.toLowerCase() })
      .onConflictDoNothing();
  const [identity] = await db.select().from(authIdentity).where(eq(authIdentity.id, id));
  const claims = {
    actor_type: actorType,
    actor_id: actorId,
    auth_identity_id: id,
    app_metadata: identity!.app_metadata,
    credentials_version: identity!.credentials_version,
  };
  return { authorization: `Bearer ${await app.tokens.sign(claims)}` };
}
