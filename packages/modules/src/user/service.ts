import { generateId, normalizeEmail } from "@kasse/core";
import type { ListPaging } from "@kasse/db";
import { userQueries as q } from "./queries";
import type { UserRow } from "./schema";
import type { UserCreate, UserFilters, UserUpdate } from "./shapes";

/** A list's filters with their `email` values normalized. */
export const withNormalizedEmail = <F extends { email?: string[] }>(filters: F): F =>
  filters.email ? { ...filters, email: filters.email.map(normalizeEmail) } : filters;

/**
 * Admin users: CRUD; the email is unique among live users (case-insensitive). Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const users = createUserService();
 * const admin = await users.create({ email: "admin@example.com" });
 */
export function createUserService() {
  const service = {
    async create(input: UserCreate): Promise<UserRow> {
      const email = normalizeEmail(input.email);
      return q.insert({ ...input, id: generateId("user"), email }, `A user with email ${email} already exists`);
    },

    retrieve: q.retrieve,

    /** Whether a live (not deleted) user has this id: a secret API key works only while its maker is one. */
    exists: async (id: string): Promise<boolean> => (await q.existing([id])).has(id),

    /** Whether any user exists (the first embedded start creates an admin when none does). */
    any: q.any,

    retrieveByEmail: async (email: string): Promise<UserRow | null> =>
      (await q.byEmail({ email: normalizeEmail(email) })) ?? null,

    list: (filters: UserFilters, page: ListPaging) => q.list(withNormalizedEmail(filters), page),

    update: (id: string, input: UserUpdate): Promise<UserRow> => q.update(id, input),

    /** Soft delete; the email becomes free for a new user. */
    delete: q.softDelete,

    /** Removes a user that was just created, row and all (the compensation of creating it). */
    async remove(id: string): Promise<void> {
      await q.remove({ id });
    },

    /** Makes a soft-deleted user live again (the compensation of deleting it). */
    async restore(id: string): Promise<void> {
      await q.undelete({ id, at: new Date() });
    },
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;
