// The user module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/user/tables`;
// lint forbids it elsewhere): everything else goes through the services.
export { invite, user } from "./schema";
