CREATE TABLE "order_return_change" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"return_id" text NOT NULL,
	"change_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"location_id" text,
	"description" text,
	"internal_note" text,
	"created_by" text,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_line_item" ADD COLUMN "return_dismissed_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_return_item" ADD COLUMN "damaged_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_return_change" ADD CONSTRAINT "order_return_change_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_return_change_pending_uq" ON "order_return_change" USING btree ("order_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "order_return_change_return_idx" ON "order_return_change" USING btree ("return_id");