import { eq } from "drizzle-orm";
import { step } from "@kasse/workflows";
import { user, type UserCreate } from "./schema";
import { createUserService } from "./service";

/** Creates an admin user; undone by removing the row (it never existed for anyone else). */
export const createUserStep = step("create-user", {
  invoke: async (input: UserCreate, ctx) => {
    const created = await createUserService(ctx.tx).create(input, ctx.tx);
    return { output: { id: created.id, email: created.email }, compensateInput: created.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.tx.delete(user).where(eq(user.id, id));
  },
});

/** Soft-deletes an admin user; undone by restoring it. */
export const deleteUserStep = step("delete-user", {
  invoke: async (id: string, ctx) => {
    await createUserService(ctx.tx).delete(id, ctx.tx);
    return { output: null, compensateInput: id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.tx.update(user).set({ deleted_at: null }).where(eq(user.id, id));
  },
});
