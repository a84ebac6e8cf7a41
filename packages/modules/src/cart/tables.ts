// The cart module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/cart/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { cart, cartLineItem, cartShippingMethod } from "./schema";
