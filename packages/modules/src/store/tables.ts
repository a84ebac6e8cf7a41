// The store module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/store/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { store, storeCurrency } from "./schema";
