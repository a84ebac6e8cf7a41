export { createRegionService, type RegionService, type Region, type Country } from "./service";
export { createRegionStep, updateRegionStep } from "./steps";
export {
  CountryView,
  RegionCreate,
  RegionUpdate,
  RegionView,
  type CountryRow,
  type RegionFilters,
  type RegionRow,
} from "./shapes";
