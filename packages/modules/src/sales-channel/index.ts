export * from "./schema";
export { createSalesChannelService, type SalesChannelService } from "./service";
