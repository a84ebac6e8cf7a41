CREATE TABLE "store" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"default_sales_channel_id" text,
	"default_region_id" text,
	"default_location_id" text,
	"is_primary" boolean DEFAULT true NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "store_currency" (
	"id" text PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "store_primary_uq" ON "store" USING btree ("is_primary") WHERE is_primary and deleted_at is null;--> statement-breakpoint
CREATE INDEX "store_currency_store_idx" ON "store_currency" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "store_currency_code_uq" ON "store_currency" USING btree ("store_id","currency_code") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "store_currency_default_uq" ON "store_currency" USING btree ("store_id") WHERE is_default and deleted_at is null;