// The fulfillment module's tables, for migrations, tests and `kasse check` only (lint forbids them elsewhere).
export {
  fulfillment,
  fulfillmentItem,
  fulfillmentSet,
  geoZone,
  serviceZone,
  shippingOption,
  shippingOptionPrice,
  shippingOptionType,
  shippingProfile,
} from "./schema";
