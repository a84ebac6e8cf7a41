import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import { db, first, inFilters, liveRecords, statement, textSearch, type Placeholders } from "@kasse/db";
import { invite, user } from "./schema";
import type { InviteFilters, UserFilters } from "./shapes";

// The user module's SQL (users and invites): the only file of the module that imports drizzle and its tables.

const users = liveRecords(user, "User", { email: user.email, first_name: user.first_name, last_name: user.last_name });
const invites = liveRecords(invite, "Invite", { email: invite.email, expires_at: invite.expires_at });

/** An invite that can still be accepted: live, not accepted, not expired. */
const open = and(invites.live, eq(invite.accepted, false), gt(invite.expires_at, sql`now()`));

/** The filters of a user list as conditions (`email` already normalized). */
const userConditions = (filters: UserFilters): SQL[] => [
  ...inFilters(filters, { id: user.id, email: user.email }),
  ...textSearch(filters.q, [user.email, user.first_name, user.last_name]),
];

/** The filters of an invite list as conditions (`email` already normalized). */
const inviteConditions = (filters: InviteFilters): SQL[] => [
  ...inFilters(filters, { id: invite.id, email: invite.email }),
  ...textSearch(filters.q, [invite.email]),
];

/** Named statements on the `user` table, run on the current handle. */
export const userQueries = {
  ...users,
  list: users.listBy(userConditions),
  /** The live user with this (normalized) email. */
  byEmail: first(
    statement((v: Placeholders<{ email: string }>) =>
      db
        .select()
        .from(user)
        .where(and(eq(user.email, v.email), users.live)),
    ),
  ),
  /** Removes the row itself, live or not. */
  remove: statement((v: Placeholders<{ id: string }>) => db.delete(user).where(eq(user.id, v.id))),
  /** Makes a soft-deleted user live again. */
  undelete: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db.update(user).set({ deleted_at: null, updated_at: v.at }).where(eq(user.id, v.id)),
  ),
};

/** Named statements on the `invite` table, run on the current handle. */
export const inviteQueries = {
  ...invites,
  list: invites.listBy(inviteConditions),
  /** A new secret's hash and expiry for the live invite `id` not yet accepted; undefined when there is none. */
  renew: first(
    statement((v: Placeholders<{ id: string; token_hash: string; expires_at: Date; at: Date }>) =>
      db
        .update(invite)
        .set({ token_hash: v.token_hash, expires_at: v.expires_at, updated_at: v.at })
        .where(and(eq(invite.id, v.id), invites.live, eq(invite.accepted, false)))
        .returning(),
    ),
  ),
  /** The invite whose secret has this hash, if it can still be accepted. */
  openByHash: first(
    statement((v: Placeholders<{ token_hash: string }>) =>
      db
        .select()
        .from(invite)
        .where(and(eq(invite.token_hash, v.token_hash), open)),
    ),
  ),
  /** Marks the invite accepted and deleted if it can still be accepted; undefined otherwise. */
  claim: first(
    statement((v: Placeholders<{ id: string; at: Date }>) =>
      db
        .update(invite)
        .set({ accepted: true, deleted_at: v.at, updated_at: v.at })
        .where(and(eq(invite.id, v.id), open))
        .returning(),
    ),
  ),
  /** Opens a claimed invite again. */
  unclaim: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db
      .update(invite)
      .set({ accepted: false, deleted_at: null, updated_at: v.at })
      .where(and(eq(invite.id, v.id), eq(invite.accepted, true))),
  ),
};
