export { createSalesChannelService, type SalesChannelService } from "./service";
export * from "./shapes";
