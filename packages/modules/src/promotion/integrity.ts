import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@kasse/db";

/** Read-only reads of the promotion module's tables for `kasse check`. Part of the promotion service. */
export function integrityMethods(db: Db) {
  return {
    /**
     * One page (by campaign id) of campaign budgets: what each counted (`used`: orders for a usage
     * budget, minor units for a spend budget) and every promotion of the campaign, deleted ones included.
     */
    async budgetsPage(
      afterCampaignId: string,
      limit: number,
    ): Promise<Array<{ campaign_id: string; type: "usage" | "spend"; used: number; promotion_ids: string[] }>> {
      const rows = await queryRows<{
        campaign_id: string;
        type: "usage" | "spend";
        used: string | number;
        promotion_ids: string[];
      }>(
        db,
        sql`select b.campaign_id, b.type, b.used, coalesce(array_agg(p.id order by p.id) filter (where p.id is not null), '{}') as promotion_ids
            from promotion_campaign_budget b left join promotion p on p.campaign_id = b.campaign_id
            where b.deleted_at is null and b.campaign_id > ${afterCampaignId}
            group by b.campaign_id, b.type, b.used order by b.campaign_id limit ${limit}`,
      );
      return rows.map((r) => ({ ...r, used: Number(r.used) }));
    },
  };
}
