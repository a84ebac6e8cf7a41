import type { App } from "../../app-type";
import { claimExchangeRoutes } from "../../orders/claim-exchange-routes";

/**
 * Medusa's exchanges (`/admin/exchanges`, docs/orders.md "Exchanges and claims"): units returned
 * (inbound, a return) against new lines sent out (outbound), with a shipping method each way,
 * confirmed as the order's next version by one saga; `difference_due` is what it changed the
 * order's total by.
 */
export default async function exchanges(app: App): Promise<void> {
  claimExchangeRoutes(app, "exchange");
}
