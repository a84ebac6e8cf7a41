ALTER TABLE "cart" ADD COLUMN "priced_version" bigint;--> statement-breakpoint
ALTER TABLE "cart" ADD COLUMN "priced_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "catalog_version" ADD COLUMN "cart_version" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A cart stamped with cart_version (cart.priced_version) was computed from what the store offered
-- at that version: the catalog's triggers now bump it with the catalog's version, and the tables
-- below (promotions, customer groups, shipping options, taxes) bump it alone. Once per writing
-- transaction, as the catalog's version.
CREATE OR REPLACE FUNCTION "kasse_bump_catalog_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('kasse.catalog_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE "catalog_version" SET "version" = "version" + 1, "cart_version" = "cart_version" + 1 WHERE "id" = 1;
    PERFORM set_config('kasse.catalog_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "kasse_bump_cart_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('kasse.cart_bumped', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE "catalog_version" SET "cart_version" = "cart_version" + 1 WHERE "id" = 1;
    PERFORM set_config('kasse.cart_bumped', txid_current()::text, true);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "promotion_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "promotion" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "promotion_application_method_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "promotion_application_method" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "promotion_rule_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "promotion_rule" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "promotion_campaign_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "promotion_campaign" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "customer_group_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customer_group" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "customer_group_customer_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customer_group_customer" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "shipping_option_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_option" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "shipping_option_price_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shipping_option_price" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "service_zone_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "service_zone" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "geo_zone_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "geo_zone" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "tax_region_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tax_region" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "tax_rate_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tax_rate" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
CREATE TRIGGER "tax_rate_rule_cart_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tax_rate_rule" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
--> statement-breakpoint
-- A budget's "used" moves with every order using its campaign: only the budget's terms bump.
CREATE TRIGGER "promotion_campaign_budget_cart_version" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "type", "limit", "currency_code", "campaign_id", "deleted_at" ON "promotion_campaign_budget" FOR EACH STATEMENT EXECUTE FUNCTION "kasse_bump_cart_version"();
