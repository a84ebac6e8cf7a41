import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import { db, inFilters, liveRecords, statement, textSearch, type Placeholders } from "@kasse/db";
import { invite, user, type InviteRow, type UserRow } from "./schema";
import type { InviteFilters, UserFilters } from "./shapes";

// The user module's SQL (users and invites): the only file of the module that imports drizzle and its tables.

const users = liveRecords(user, "User", { email: user.email, first_name: user.first_name, last_name: user.last_name });
const invites = liveRecords(invite, "Invite", { email: invite.email, expires_at: invite.expires_at });

/** An invite that can still be accepted: live, not accepted, not expired. */
const open = and(invites.live, eq(invite.accepted, false), gt(invite.expires_at, sql`now()`));

const userByEmail = statement((v: Placeholders<{ email: string }>) =>
  db
    .select()
    .from(user)
    .where(and(eq(user.email, v.email), users.live)),
);

const deleteUser = statement((v: Placeholders<{ id: string }>) => db.delete(user).where(eq(user.id, v.id)));

const undeleteUser = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db.update(user).set({ deleted_at: null, updated_at: v.at }).where(eq(user.id, v.id)),
);

const insertInvite = statement(
  (v: Placeholders<{ id: string; email: string; token_hash: string; expires_at: Date; metadata: unknown }>) =>
    db.insert(invite).values(v).returning(),
);

const renewInvite = statement((v: Placeholders<{ id: string; token_hash: string; expires_at: Date; at: Date }>) =>
  db
    .update(invite)
    .set({ token_hash: v.token_hash, expires_at: v.expires_at, updated_at: v.at })
    .where(and(eq(invite.id, v.id), invites.live, eq(invite.accepted, false)))
    .returning(),
);

const openByHash = statement((v: Placeholders<{ token_hash: string }>) =>
  db
    .select()
    .from(invite)
    .where(and(eq(invite.token_hash, v.token_hash), open)),
);

const claimInvite = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(invite)
    .set({ accepted: true, deleted_at: v.at, updated_at: v.at })
    .where(and(eq(invite.id, v.id), open))
    .returning(),
);

const unclaimInvite = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(invite)
    .set({ accepted: false, deleted_at: null, updated_at: v.at })
    .where(and(eq(invite.id, v.id), eq(invite.accepted, true))),
);

/** The filters of a user list as conditions (`email` already normalized). */
function userConditions(filters: UserFilters): SQL[] {
  return [
    ...inFilters(filters, { id: user.id, email: user.email }),
    ...textSearch(filters.q, [user.email, user.first_name, user.last_name]),
  ];
}

/** The filters of an invite list as conditions (`email` already normalized). */
function inviteConditions(filters: InviteFilters): SQL[] {
  return [...inFilters(filters, { id: invite.id, email: invite.email }), ...textSearch(filters.q, [invite.email])];
}

/** Named statements on the `user` table, run on the current handle. */
export const userQueries = {
  ...users,
  list: users.listBy(userConditions),
  /** The live user with this (normalized) email. */
  byEmail: async (email: string): Promise<UserRow | undefined> => (await userByEmail({ email }))[0],
  /** Removes the row itself, live or not. */
  remove: async (id: string): Promise<void> => {
    await deleteUser({ id });
  },
  /** Makes a soft-deleted user live again. */
  undelete: async (id: string): Promise<void> => {
    await undeleteUser({ id, at: new Date() });
  },
};

/** Named statements on the `invite` table, run on the current handle. */
export const inviteQueries = {
  retrieve: invites.retrieve,
  softDelete: invites.softDelete,
  list: invites.listBy(inviteConditions),
  insert: async (row: Parameters<typeof insertInvite>[0]): Promise<InviteRow> => (await insertInvite(row))[0]!,
  /** A new secret's hash and expiry for the live invite `id` not yet accepted; undefined when there is none. */
  renew: async (id: string, tokenHash: string, expiresAt: Date): Promise<InviteRow | undefined> =>
    (await renewInvite({ id, token_hash: tokenHash, expires_at: expiresAt, at: new Date() }))[0],
  /** The invite whose secret has this hash, if it can still be accepted. */
  openByHash: async (tokenHash: string): Promise<InviteRow | undefined> =>
    (await openByHash({ token_hash: tokenHash }))[0],
  /** Marks the invite accepted and deleted if it can still be accepted; undefined otherwise. */
  claim: async (id: string): Promise<InviteRow | undefined> => (await claimInvite({ id, at: new Date() }))[0],
  /** Opens a claimed invite again. */
  unclaim: async (id: string): Promise<void> => {
    await unclaimInvite({ id, at: new Date() });
  },
};
