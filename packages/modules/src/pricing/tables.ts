// The pricing module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/pricing/tables`;
// lint forbids it elsewhere): everything else goes through the services.
export { price, priceList, priceListRule, pricePreference } from "./schema";
