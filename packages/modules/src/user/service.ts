import { and, eq, inArray, type SQL } from "drizzle-orm";
import { generateId } from "@kasse/core";
import { type Db, type ListPaging, liveRecords, textSearch } from "@kasse/db";
import { user, type UserCreate, type UserFilters, type UserRow, type UserUpdate } from "./schema";

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Admin users: CRUD; the email is unique among live users (case-insensitive).
 * @example
 * const users = createUserService(db);
 * const admin = await users.create({ email: "admin@example.com" });
 */
export function createUserService(db: Db) {
  const rows = liveRecords(db, user, "User", {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
  });
  const service = {
    async create(input: UserCreate): Promise<UserRow> {
      const email = normalizeEmail(input.email);
      return rows.insert(
        {
          id: generateId("user"),
          email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          avatar_url: input.avatar_url ?? null,
          metadata: input.metadata ?? null,
        },
        `A user with email ${email} already exists`,
      );
    },

    retrieve: (id: string): Promise<UserRow> => rows.retrieve(id),

    /** Whether a live (not deleted) user has this id: a secret API key works only while its maker is one. */
    exists: async (id: string): Promise<boolean> => (await rows.existing([id])).has(id),

    /** Whether any user exists (the first embedded start creates an admin when none does). */
    any: (): Promise<boolean> => rows.any(),

    async retrieveByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db
        .select()
        .from(user)
        .where(and(eq(user.email, normalizeEmail(email)), rows.live));
      return row ?? null;
    },

    list: (filters: UserFilters, page: ListPaging) => rows.list(conditions(filters), page),

    update: (id: string, input: UserUpdate): Promise<UserRow> => rows.update(id, input),

    /** Soft delete; the email becomes free for a new user. */
    delete: (id: string): Promise<void> => rows.softDelete(id),
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;

function conditions(filters: UserFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(user.id, filters.id));
  if (filters.email?.length) out.push(inArray(user.email, filters.email.map(normalizeEmail)));
  out.push(...textSearch(filters.q, [user.email, user.first_name, user.last_name]));
  return out;
}
