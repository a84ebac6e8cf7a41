import { eq } from "drizzle-orm";
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
 * Reads the catalog's current version on `db` with one statement, built once. Read it BEFORE
 * reading the answer it labels: an answer stored under a version is then at least as new as that version.
 */
export function catalogVersionReader(db: Db): () => Promise<string> {
  return async () => String((await readVersion(db, {}))[0]?.version ?? 0);
}
