// The product module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/product/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export {
  product,
  productCategory,
  productCategoryProduct,
  productCollection,
  productImage,
  productOption,
  productOptionValue,
  productSalesChannel,
  productTag,
  productTags,
  productType,
  productVariant,
  productVariantImage,
  productVariantOption,
} from "./schema";
