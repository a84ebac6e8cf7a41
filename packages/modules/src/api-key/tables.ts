// The api-key module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/api-key/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { apiKey, apiKeySalesChannel } from "./schema";
