CREATE TABLE "fulfillment_set" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"stock_location_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "geo_zone" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"country_code" text NOT NULL,
	"province_code" text,
	"city" text,
	"postal_expression" jsonb,
	"service_zone_id" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_zone" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"fulfillment_set_id" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "geo_zone" ADD CONSTRAINT "geo_zone_service_zone_id_service_zone_id_fk" FOREIGN KEY ("service_zone_id") REFERENCES "public"."service_zone"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_zone" ADD CONSTRAINT "service_zone_fulfillment_set_id_fulfillment_set_id_fk" FOREIGN KEY ("fulfillment_set_id") REFERENCES "public"."fulfillment_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fulfillment_set_name_uq" ON "fulfillment_set" USING btree ("name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "fulfillment_set_location_idx" ON "fulfillment_set" USING btree ("stock_location_id");--> statement-breakpoint
CREATE INDEX "geo_zone_service_zone_idx" ON "geo_zone" USING btree ("service_zone_id");--> statement-breakpoint
CREATE INDEX "geo_zone_country_idx" ON "geo_zone" USING btree ("country_code");--> statement-breakpoint
CREATE UNIQUE INDEX "service_zone_name_uq" ON "service_zone" USING btree ("name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "service_zone_set_idx" ON "service_zone" USING btree ("fulfillment_set_id");--> statement-breakpoint
CREATE INDEX "shipping_option_service_zone_idx" ON "shipping_option" USING btree ("service_zone_id");