import { eq, sql } from "drizzle-orm";
import { catalogVersion } from "./schema";
import { builtStatement } from "./statement";
import type { Db } from "./types";

// Built once for the process (every catalog request reads it first).
const readVersion = builtStatement((_, handle) =>
  handle.select({ version: catalogVersion.version }).from(catalogVersion).where(eq(catalogVersion.id, 1)),
);

/**
 * The tables a store catalog answer (products, their variants, options, images, categories,
 * collections, tags, types, prices, price lists and preferences, the region's currency, the
 * sales channels) is read from. Each has a statement trigger bumping `catalog_version` (migration
 * 0010); `catalog-version.test.ts` fails when the database's triggers and this list differ.
 * Stock is not here: answers showing it are not cached, so checkouts write no shared row.
 */
export const CATALOG_TABLES = [
  "product",
  "product_option",
  "product_option_value",
  "product_variant",
  "product_variant_option",
  "product_image",
  "product_variant_image",
  "product_collection",
  "product_category",
  "product_tag",
  "product_type",
  "product_tags",
  "product_category_product",
  "product_sales_channel",
  "price",
  "price_list",
  "price_list_rule",
  "price_preference",
  "region",
  "currency",
  "sales_channel",
] as const;

/**
 * The tables beyond the catalog's that a cart's computation reads: promotions and campaigns,
 * customer groups (they select price lists and promotions), shipping options and their zones, tax
 * regions and rates. Each has a statement trigger bumping `cart_version` (migration 0020), which
 * the catalog tables' triggers bump too; `catalog-version.test.ts` fails when they differ. A
 * campaign budget's `used` bumps nothing (every order using the campaign moves it): checkout and
 * cart reads compare budgets themselves.
 */
export const CART_TABLES = [
  "promotion",
  "promotion_application_method",
  "promotion_rule",
  "promotion_campaign",
  "promotion_campaign_budget",
  "customer_group",
  "customer_group_customer",
  "shipping_option",
  "shipping_option_price",
  "service_zone",
  "geo_zone",
  "tax_region",
  "tax_rate",
  "tax_rate_rule",
] as const;

/**
 * The current `cart_version` as a column of a cart read (a subquery on the one row, by primary
 * key): the read tells whether the cart's stamp (`priced_version`) is current at no extra
 * statement. Read before the data a computation uses, like the catalog's version.
 */
export const currentCartVersion = () =>
  sql<number>`(select ${catalogVersion.cart_version} from ${catalogVersion} where ${catalogVersion.id} = 1)`.mapWith(
    Number,
  );

/**
 * Reads the catalog's current version on `db` with one statement, built once. Read it BEFORE
 * reading the answer it labels: an answer stored under a version is then at least as new as that version.
 */
export function catalogVersionReader(db: Db): () => Promise<string> {
  return async () => String((await readVersion(db, {}))[0]?.version ?? 0);
}
