// The region module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/region/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { region, regionCountry, regionPaymentProvider } from "./schema";
