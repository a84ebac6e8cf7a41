import { promotionQueries as q } from "./queries";

/** Read-only reads of the promotion module's tables for `kasse check`. Part of the promotion service. */
export function integrityMethods() {
  return {
    /**
     * One page (by campaign id) of campaign budgets: what each counted (`used`: orders for a usage
     * budget, minor units for a spend budget) and every promotion of the campaign, deleted ones included.
     */
    budgetsPage: (
      afterCampaignId: string,
      limit: number,
    ): Promise<Array<{ campaign_id: string; type: "usage" | "spend"; used: number; promotion_ids: string[] }>> =>
      q.budgetsPage(afterCampaignId, limit),
  };
}
