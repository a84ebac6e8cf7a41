CREATE TABLE "catalog_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalog_version" ("id", "version") VALUES (1, 0);
--> statement-breakpoint
-- Bumps the catalog version once per writing transaction (a savepoint rolled back undoes its bump
-- and its marker together). The row lock is held to commit, so catalog writers queue on it; no
-- checkout statement writes these tables (stock is read fresh, never cached).
CREATE FUNCTION "kasse_bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('kasse.catalog_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE "catalog_version" SET "version" = "version" + 1 WHERE "id" = 1;
    PERFORM set_config('kasse.catalog_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "product_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_option_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_option" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_option_value_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_option_value" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_variant_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_variant" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_variant_option_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_variant_option" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_image_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_image" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_variant_image_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_variant_image" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_collection_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_collection" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_category_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_category" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_tag_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_tag" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_type_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_type" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_tags_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_tags" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_category_product_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_category_product" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "product_sales_channel_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_sales_channel" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "price_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "price" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "price_list_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "price_list" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "price_list_rule_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "price_list_rule" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "price_preference_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "price_preference" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "region_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "region" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "currency_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "currency" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
--> statement-breakpoint
CREATE TRIGGER "sales_channel_catalog_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sales_channel" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_catalog_version"();
