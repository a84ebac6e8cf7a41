export * from "./schema";
export { createUserService, type UserService } from "./service";
export * from "./steps";
