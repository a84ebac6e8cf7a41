export { createRegionService, type RegionService, type Region, type Country } from "./service";
export { createRegionStep, updateRegionStep } from "./steps";
export * from "./shapes";
