import { randomBytes } from "node:crypto";
import { errors, generateId, hashSecret, normalizeEmail } from "@kasse/core";
import { isUniqueViolation, viewPage, type ListPaging } from "@kasse/db";
import { inviteQueries as q, userQueries } from "./queries";
import { withNormalizedEmail } from "./service";
import type { InviteRow } from "./schema";
import type { InviteCreate, InviteFilters } from "./shapes";

/** How long an invite can be accepted: 7 days from its creation or its last resend. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** An invite as the API shows it: never its hash. */
export type InviteDetails = Omit<InviteRow, "token_hash">;
const details = ({ token_hash: _hash, ...rest }: InviteRow): InviteDetails => rest;

/**
 * Admin invites: an invite names an email and carries a random 256-bit secret, stored only as its
 * SHA-256. `create` and `resend` return the secret once (the caller sends it to the invitee);
 * {@link findOpen} finds the invite a secret belongs to, and {@link claim} uses it up (one UPDATE
 * decides, so two accepts of one invite cannot both succeed). Built once per process; every method
 * runs in the transaction in progress, if any.
 * @example
 * const invites = createInviteService();
 * const { invite, secret } = await invites.create({ email: "ana@example.com" });
 */
export function createInviteService() {
  const service = {
    /** A new invite; an email that already has a user or a live invite is `conflict`. */
    async create(input: InviteCreate): Promise<{ invite: InviteDetails; secret: string }> {
      const email = normalizeEmail(input.email);
      if (await userQueries.byEmail({ email })) throw errors.conflict(`A user with email ${email} already exists`);
      const secret = randomBytes(32).toString("base64url");
      try {
        const created = await q.insert({
          id: generateId("invite"),
          email,
          token_hash: hashSecret(secret),
          expires_at: new Date(Date.now() + INVITE_TTL_MS),
          metadata: input.metadata ?? null,
        });
        return { invite: details(created), secret };
      } catch (error) {
        if (isUniqueViolation(error, "invite_email_uq")) throw errors.conflict(`An invite for ${email} already exists`);
        throw error;
      }
    },

    retrieve: async (id: string): Promise<InviteDetails> => details(await q.retrieve(id)),

    list: (filters: InviteFilters, page: ListPaging) =>
      viewPage(q.list(withNormalizedEmail(filters), page), (rows) => rows.map(details)),

    /** A new secret and a new expiry for an invite not yet accepted; the previous secret stops working. */
    async resend(id: string): Promise<{ invite: InviteDetails; secret: string }> {
      const secret = randomBytes(32).toString("base64url");
      const expires_at = new Date(Date.now() + INVITE_TTL_MS);
      const updated = await q.renew({ id, token_hash: hashSecret(secret), expires_at, at: new Date() });
      if (!updated) {
        await q.retrieve(id);
        throw errors.invalidData(`Invite with id: ${id} was already accepted`);
      }
      return { invite: details(updated), secret };
    },

    /** Soft delete: the invite's secret stops working and its email may be invited again. */
    delete: q.softDelete,

    /** The invite a secret belongs to if it can still be accepted (live, not accepted, unexpired), else null. */
    async findOpen(secret: string): Promise<InviteDetails | null> {
      const found = await q.openByHash({ token_hash: hashSecret(secret) });
      return found ? details(found) : null;
    },

    /**
     * Uses the invite up (accepted, and deleted so its email is free again), if it can still be
     * accepted; otherwise null and nothing changes. Undone by {@link unclaim}.
     */
    async claim(id: string): Promise<InviteDetails | null> {
      const claimed = await q.claim({ id, at: new Date() });
      return claimed ? details(claimed) : null;
    },

    /** Opens a claimed invite again (the compensation of {@link claim}). */
    async unclaim(id: string): Promise<void> {
      await q.unclaim({ id, at: new Date() });
    },
  };
  return service;
}

export type InviteService = ReturnType<typeof createInviteService>;
