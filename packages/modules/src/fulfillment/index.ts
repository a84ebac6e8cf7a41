export * from "./schema";
export { priceFor } from "./price-for";
export { createFulfillmentService, type FulfillmentService, type ShippingOption } from "./service";
