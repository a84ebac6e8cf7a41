import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { isUniqueViolation, type Db, type ListPaging, liveRecords, textSearch } from "@kasse/db";
import { invite, user, type InviteCreate, type InviteFilters, type InviteRow } from "./schema";

/** How long an invite can be accepted: 7 days from its creation or its last resend. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

const live = isNull(invite.deleted_at);
/** An invite that can still be accepted: live, not accepted, not expired. */
const open = () => and(live, eq(invite.accepted, false), gt(invite.expires_at, sql`now()`));
const normalizeEmail = (email: string) => email.trim().toLowerCase();
const sha256 = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** An invite as the API shows it: never its hash. */
export type InviteDetails = Omit<InviteRow, "token_hash">;
const details = ({ token_hash: _hash, ...rest }: InviteRow): InviteDetails => rest;

/**
 * Admin invites: an invite names an email and carries a random 256-bit secret, stored only as its
 * SHA-256. `create` and `resend` return the secret once (the caller sends it to the invitee);
 * {@link findOpen} finds the invite a secret belongs to, and {@link claim} uses it up (one UPDATE
 * decides, so two accepts of one invite cannot both succeed).
 * @example
 * const invites = createInviteService(db);
 * const { invite, secret } = await invites.create({ email: "ana@example.com" });
 */
export function createInviteService(db: Db) {
  const rows = liveRecords(db, invite, "Invite", { email: invite.email, expires_at: invite.expires_at });
  const service = {
    /** A new invite; an email that already has a user or a live invite is `conflict`. */
    async create(input: InviteCreate): Promise<{ invite: InviteDetails; secret: string }> {
      const email = normalizeEmail(input.email);
      const [existing] = await db
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.email, email), isNull(user.deleted_at)));
      if (existing) throw errors.conflict(`A user with email ${email} already exists`);
      const secret = randomBytes(32).toString("base64url");
      try {
        const [created] = await db
          .insert(invite)
          .values({
            id: generateId("invite"),
            email,
            token_hash: sha256(secret),
            expires_at: new Date(Date.now() + INVITE_TTL_MS),
            metadata: input.metadata ?? null,
          })
          .returning();
        return { invite: details(created!), secret };
      } catch (error) {
        if (isUniqueViolation(error, "invite_email_uq")) throw errors.conflict(`An invite for ${email} already exists`);
        throw error;
      }
    },

    retrieve: async (id: string): Promise<InviteDetails> => details(await rows.retrieve(id)),

    async list(filters: InviteFilters, page: ListPaging): Promise<{ items: InviteDetails[]; count: number }> {
      const { items, count } = await rows.list(conditions(filters), page);
      return { items: items.map(details), count };
    },

    /** A new secret and a new expiry for an invite not yet accepted; the previous secret stops working. */
    async resend(id: string): Promise<{ invite: InviteDetails; secret: string }> {
      const secret = randomBytes(32).toString("base64url");
      const [updated] = await db
        .update(invite)
        .set({ token_hash: sha256(secret), expires_at: new Date(Date.now() + INVITE_TTL_MS), updated_at: new Date() })
        .where(and(eq(invite.id, id), live, eq(invite.accepted, false)))
        .returning();
      if (!updated) {
        await rows.retrieve(id);
        throw errors.invalidData(`Invite with id: ${id} was already accepted`);
      }
      return { invite: details(updated), secret };
    },

    /** Soft delete: the invite's secret stops working and its email may be invited again. */
    delete: (id: string): Promise<void> => rows.softDelete(id),

    /** The invite a secret belongs to if it can still be accepted (live, not accepted, unexpired), else null. */
    async findOpen(secret: string): Promise<InviteDetails | null> {
      const [found] = await db
        .select()
        .from(invite)
        .where(and(eq(invite.token_hash, sha256(secret)), open()));
      return found ? details(found) : null;
    },

    /**
     * Uses the invite up (accepted, and deleted so its email is free again), if it can still be
     * accepted; otherwise null and nothing changes. Undone by {@link unclaim}.
     */
    async claim(id: string): Promise<InviteDetails | null> {
      const [claimed] = await db
        .update(invite)
        .set({ accepted: true, deleted_at: new Date(), updated_at: new Date() })
        .where(and(eq(invite.id, id), open()))
        .returning();
      return claimed ? details(claimed) : null;
    },

    /** Opens a claimed invite again (the compensation of {@link claim}). */
    async unclaim(id: string): Promise<void> {
      await db
        .update(invite)
        .set({ accepted: false, deleted_at: null, updated_at: new Date() })
        .where(and(eq(invite.id, id), eq(invite.accepted, true)));
    },
  };
  return service;
}

export type InviteService = ReturnType<typeof createInviteService>;

function conditions(filters: InviteFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(invite.id, filters.id));
  if (filters.email?.length) out.push(inArray(invite.email, filters.email.map(normalizeEmail)));
  out.push(...textSearch(filters.q, [invite.email]));
  return out;
}
