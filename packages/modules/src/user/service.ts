import { and, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { errors, generateId, isUniqueViolation, orderBy, type Db, type Paging, listPage, likePattern } from "@kasse/db";
import { user, type UserCreate, type UserFilters, type UserRow, type UserUpdate } from "./schema";

const live = isNull(user.deleted_at);
const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Admin users: CRUD; the email is unique among live users (case-insensitive).
 * @example
 * const users = createUserService(db);
 * const admin = await users.create({ email: "admin@example.com" });
 */
export function createUserService(db: Db) {
  const service = {
    async create(input: UserCreate): Promise<UserRow> {
      const email = normalizeEmail(input.email);
      try {
        const [row] = await db
          .insert(user)
          .values({
            id: generateId("user"),
            email,
            first_name: input.first_name ?? null,
            last_name: input.last_name ?? null,
            avatar_url: input.avatar_url ?? null,
            metadata: input.metadata ?? null,
          })
          .returning();
        return row!;
      } catch (error) {
        if (isUniqueViolation(error, "user_email_uq"))
          throw errors.conflict(`A user with email ${email} already exists`);
        throw error;
      }
    },

    async retrieve(id: string): Promise<UserRow> {
      const [row] = await db
        .select()
        .from(user)
        .where(and(eq(user.id, id), live));
      if (!row) throw errors.notFound(`User with id: ${id} was not found`);
      return row;
    },

    async retrieveByEmail(email: string): Promise<UserRow | null> {
      const [row] = await db
        .select()
        .from(user)
        .where(and(eq(user.email, normalizeEmail(email)), live));
      return row ?? null;
    },

    async list(filters: UserFilters, page: Paging & { order?: string }): Promise<{ items: UserRow[]; count: number }> {
      const where = and(live, ...conditions(filters));
      return listPage(
        db,
        user,
        where,
        orderBy(
          page.order,
          {
            created_at: user.created_at,
            updated_at: user.updated_at,
            email: user.email,
            first_name: user.first_name,
            last_name: user.last_name,
          },
          user.id,
        ),
        page,
      );
    },

    async update(id: string, input: UserUpdate): Promise<UserRow> {
      if (Object.keys(input).length === 0) return service.retrieve(id);
      const [row] = await db
        .update(user)
        .set(input)
        .where(and(eq(user.id, id), live))
        .returning();
      if (!row) throw errors.notFound(`User with id: ${id} was not found`);
      return row;
    },

    /** Soft delete; the email becomes free for a new user. */
    async delete(id: string): Promise<void> {
      const [row] = await db
        .update(user)
        .set({ deleted_at: new Date() })
        .where(and(eq(user.id, id), live))
        .returning({ id: user.id });
      if (!row) throw errors.notFound(`User with id: ${id} was not found`);
    },
  };
  return service;
}

export type UserService = ReturnType<typeof createUserService>;

function conditions(filters: UserFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(user.id, filters.id));
  if (filters.email?.length) out.push(inArray(user.email, filters.email.map(normalizeEmail)));
  if (filters.q) {
    const pattern = likePattern(filters.q);
    out.push(or(ilike(user.email, pattern), ilike(user.first_name, pattern), ilike(user.last_name, pattern))!);
  }
  return out;
}
