CREATE TABLE "shipping_option_type" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shipping_option" ADD COLUMN "shipping_option_type_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_option_type_code_uq" ON "shipping_option_type" USING btree ("code") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "shipping_option_type_created_at_idx" ON "shipping_option_type" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "shipping_option_type_idx" ON "shipping_option" USING btree ("shipping_option_type_id");