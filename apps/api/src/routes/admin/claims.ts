import { ClaimItemsAdd, ClaimItemUpdate, ClaimView } from "@kasse/modules/order";
import { Type } from "@sinclair/typebox";
import type { App } from "../../app-type";
import { ChildParams, IdParams } from "../../http/schemas";
import { claimExchangeRoutes } from "../../orders/claim-exchange-routes";
import { orderPreview, OrderPreviewView } from "../../orders/preview";

const ActionParams = ChildParams("action_id");
const WithClaim = { 200: Type.Object({ order_preview: OrderPreviewView, claim: ClaimView }) };

/**
 * Medusa's claims (`/admin/claims`, docs/orders.md "Exchanges and claims"): claimed items with a
 * reason (`/claim-items`), units sent back (inbound, a return), lines sent out (outbound), a
 * shipping method each way; a `refund` claim takes the claimed units' value off the order (a
 * negative pending difference to refund), a `replace` claim sends its outbound lines at no charge.
 */
export default async function claims(app: App): Promise<void> {
  const service = app.modules.claimExchange;
  const answer = async (claim: { order_id: string }) => ({
    order_preview: await orderPreview(app.modules, claim.order_id),
    claim,
  });
  claimExchangeRoutes(app, "claim");

  app.post(
    "/claims/:id/claim-items",
    { schema: { params: IdParams, body: ClaimItemsAdd, response: WithClaim } },
    async (request) => answer(await service.addClaimItems(request.params.id, request.body)),
  );
  app.post(
    "/claims/:id/claim-items/:action_id",
    { schema: { params: ActionParams, body: ClaimItemUpdate, response: WithClaim } },
    async (request) => answer(await service.updateClaimItem(request.params.id, request.params.action_id, request.body)),
  );
  app.delete(
    "/claims/:id/claim-items/:action_id",
    { schema: { params: ActionParams, response: WithClaim } },
    async (request) => answer(await service.removeClaimItem(request.params.id, request.params.action_id)),
  );
}
