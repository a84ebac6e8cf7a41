import { boolean, index, text, uniqueIndex } from "@kasse/db";
import { metadata, entityTable, liveUniqueIndex, timestamptz } from "@kasse/db";

export const user = entityTable(
  "user",
  {
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    avatar_url: text("avatar_url"),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("user_email_uq").on(t.email), index("user_created_at_idx").on(t.created_at)],
);
export type UserRow = typeof user.$inferSelect;

/**
 * Invitations to become an admin user (Medusa's invites). Only a SHA-256 of the invite's secret is
 * stored; the secret travels once, in the answer creating (or resending) the invite and in the
 * invite email. Accepting marks the invite accepted and deletes it (soft), so its email can be
 * invited again once that user is gone.
 */
export const invite = entityTable(
  "invite",
  {
    email: text("email").notNull(),
    accepted: boolean("accepted").notNull().default(false),
    token_hash: text("token_hash").notNull(),
    expires_at: timestamptz("expires_at").notNull(),
    metadata: metadata(),
  },
  (t) => [
    // Accepting looks the invite up by this hash.
    uniqueIndex("invite_token_hash_uq").on(t.token_hash),
    liveUniqueIndex("invite_email_uq").on(t.email),
    index("invite_created_at_idx").on(t.created_at),
  ],
);
export type InviteRow = typeof invite.$inferSelect;
