import { ProductTypeView } from "@kasse/modules/product";
import type { App } from "../../app-type";
import { valueRoutes } from "./product-tags";

/** Admin product types: CRUD over unique values, as product tags (docs/CONTRACT.md). */
export default async function productTypes(app: App): Promise<void> {
  valueRoutes(app, app.modules.product.types, {
    path: "/product-types",
    one: "product_type",
    many: "product_types",
    view: ProductTypeView,
  });
}
