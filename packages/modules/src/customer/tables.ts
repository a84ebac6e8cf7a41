// The customer module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/customer/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { customer, customerAddress, customerGroup, customerGroupCustomer } from "./schema";
