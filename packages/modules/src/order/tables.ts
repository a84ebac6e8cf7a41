// The order module's tables, for migrations, tests and `kasse check` only (lint forbids them elsewhere).
export {
  order,
  orderChange,
  orderClaimExchange,
  orderLineItem,
  orderPromotion,
  orderReturn,
  orderReturnChange,
  orderReturnItem,
  orderShippingMethod,
  orderTransferRequest,
  returnReason,
} from "./schema";
