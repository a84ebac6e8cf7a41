CREATE TABLE "sales_channel" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "sales_channel_name_idx" ON "sales_channel" USING btree ("name");--> statement-breakpoint
CREATE INDEX "sales_channel_created_at_idx" ON "sales_channel" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_channel_default_uq" ON "sales_channel" USING btree ("is_default") WHERE is_default and deleted_at is null;