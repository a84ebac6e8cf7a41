export * from "./schema";
export { createUserService, type UserService } from "./service";
export { createInviteService, INVITE_TTL_MS, type InviteService, type InviteDetails } from "./invites";
export * from "./steps";
