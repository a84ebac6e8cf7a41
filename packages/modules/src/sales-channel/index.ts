export { createSalesChannelService, type SalesChannelService } from "./service";
export {
  SalesChannelCreate,
  SalesChannelUpdate,
  SalesChannelView,
  type SalesChannelFilters,
  type SalesChannelRow,
} from "./shapes";
