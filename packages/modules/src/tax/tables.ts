// The tax module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/tax/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { taxRegion, taxRate, taxRateRule } from "./schema";
