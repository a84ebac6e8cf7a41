export { createUserService, type UserService } from "./service";
export { createInviteService, INVITE_TTL_MS, type InviteService, type InviteDetails } from "./invites";
export { claimInviteStep, createUserStep, deleteUserStep } from "./steps";
export * from "./shapes";
