import type { DashboardAction } from "./action";
import { customersAndGroups } from "./customers";
import { editStock } from "./inventory";
import { createPriceList } from "./price-list";
import { createProduct } from "./product-create";
import { createPromotion } from "./promotion-create";
import { cancelOrder, fulfilShipDeliverCaptureRefund } from "./orders";
import { uploadProductImage } from "./product-image";
import { createAndReceiveReturn } from "./order-return";
import { editOrder } from "./order-edit";
import { returnShippingRefund } from "./order-return-refund";
import { markEditDifferencePaid } from "./order-mark-paid";
import { createExchange } from "./order-exchange";
import { createClaim } from "./order-claim";
import { createRefundReason } from "./refund-reason-create";
import { editTypelessShippingOption } from "./shipping-option-edit";
import { shippingSetup } from "./shipping-setup";
import { createTaxOverride } from "./tax-override-create";
import { workflowExecutions } from "./workflow-executions";

/** The actions the run performs, in order (later ones may build on earlier ones' records). */
export const dashboardActions: DashboardAction[] = [
  customersAndGroups,
  fulfilShipDeliverCaptureRefund,
  cancelOrder,
  createAndReceiveReturn,
  editOrder,
  returnShippingRefund,
  markEditDifferencePaid,
  createExchange,
  createClaim,
  editStock,
  uploadProductImage,
  createPriceList,
  createProduct,
  createPromotion,
  shippingSetup,
  editTypelessShippingOption,
  createRefundReason,
  createTaxOverride,
  workflowExecutions,
];
