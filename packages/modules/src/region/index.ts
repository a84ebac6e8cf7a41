export * from "./schema";
export { createRegionService, type RegionService, type Region, type Country } from "./service";
export * from "./steps";
