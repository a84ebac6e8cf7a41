export * from "./schema";
export {
  createProductService,
  type ProductService,
  type Product,
  type ProductOption,
  type ProductVariant,
  type VariantOptionValue,
  type ProductWrite,
  type VariantWrite,
  type VariantFilters,
  type VariantForSale,
  type VariantSaleStatus,
  type ProductReadOptions,
  type ProductCategory,
} from "./service";
export type { CollectionFilters, CategoryFilters, CategoryParent, CategoryReadOptions, ValueFilters } from "./catalog";
export { toHandle } from "./handle";
export * from "./steps";
