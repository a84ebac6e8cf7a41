export * from "./shapes";
export {
  createProductService,
  type ProductService,
  type ProductWrite,
  type VariantFilters,
  type VariantForSale,
  type VariantSaleStatus,
  type ProductReadOptions,
} from "./service";
export type { Product, ProductOption, ProductVariant, VariantOptionValue } from "./reads";
export type { VariantWrite } from "./variants";
export type {
  CollectionFilters,
  CategoryFilters,
  CategoryParent,
  CategoryReadOptions,
  ProductCategory,
  ValueFilters,
} from "./catalog";
export { toHandle } from "./handle";
export * from "./steps";
