import type { DashboardAction } from "./action";
import { customersAndGroups } from "./customers";
import { cancelOrder, fulfilShipDeliverCaptureRefund } from "./orders";

/** The actions the run performs, in order (later ones may build on earlier ones' records). */
export const dashboardActions: DashboardAction[] = [customersAndGroups, fulfilShipDeliverCaptureRefund, cancelOrder];
