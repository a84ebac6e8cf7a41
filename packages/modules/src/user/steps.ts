import { errors } from "@kasse/core";
import { definitions } from "@kasse/workflows";
import type { UserCreate } from "./shapes";
import type { UserService } from "./service";
import type { InviteService } from "./invites";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { user: UserService; invite: InviteService };

const { step } = definitions<StepModules>();
/** Creates an admin user; undone by removing the row (it never existed for anyone else). */
export const createUserStep = step("create-user", {
  invoke: async (input: UserCreate, ctx) => {
    const created = await ctx.modules.user.create(input);
    return { output: { id: created.id, email: created.email }, compensateInput: created.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.modules.user.remove(id);
  },
});

/** Soft-deletes an admin user; undone by restoring it. */
export const deleteUserStep = step("delete-user", {
  invoke: async (id: string, ctx) => {
    await ctx.modules.user.delete(id);
    return { output: null, compensateInput: id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.modules.user.restore(id);
  },
});

/**
 * Uses an invite up (see `createInviteService().claim`) and answers its email; an invite that is
 * unknown, already accepted, deleted or expired is `unauthorized`. Undone by opening it again.
 */
export const claimInviteStep = step("claim-invite", {
  invoke: async (inviteId: string, ctx) => {
    const claimed = await ctx.modules.invite.claim(inviteId);
    if (!claimed) throw errors.unauthorized("The invite is invalid, already used or expired");
    return { output: { id: claimed.id, email: claimed.email }, compensateInput: claimed.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.modules.invite.unclaim(id);
  },
});
