import type { DashboardAction } from "./action";
import { customersAndGroups } from "./customers";

/** The actions the run performs, in order (later ones may build on earlier ones' records). */
export const dashboardActions: DashboardAction[] = [customersAndGroups];
