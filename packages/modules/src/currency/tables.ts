// The currency module's table, for tests, migrations and `kasse check` only (`@kasse/modules/currency/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { currency } from "./schema";
