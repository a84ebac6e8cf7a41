// The notification module's table, for tests, migrations and `kasse check` only (`@kasse/modules/notification/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { notification } from "./schema";
