// The promotion module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/promotion/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export { applicationMethod, campaign, campaignBudget, promotion, promotionRule } from "./schema";
