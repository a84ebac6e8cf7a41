CREATE TABLE "order_version" (
	"order_id" text NOT NULL,
	"version" integer NOT NULL,
	"change_id" text NOT NULL,
	"items" jsonb NOT NULL,
	"shipping_methods" jsonb NOT NULL,
	"totals" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_version_order_id_version_pk" PRIMARY KEY("order_id","version")
);
--> statement-breakpoint
CREATE TABLE "order_version_change" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"change_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"version" integer NOT NULL,
	"description" text,
	"internal_note" text,
	"created_by" text,
	"requested_by" text,
	"requested_at" timestamp with time zone,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"declined_by" text,
	"declined_reason" text,
	"declined_at" timestamp with time zone,
	"canceled_by" text,
	"canceled_at" timestamp with time zone,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_version" ADD CONSTRAINT "order_version_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_version_change" ADD CONSTRAINT "order_version_change_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_version_change_active_uq" ON "order_version_change" USING btree ("order_id") WHERE status in ('pending', 'requested');--> statement-breakpoint
CREATE INDEX "order_version_change_order_idx" ON "order_version_change" USING btree ("order_id","created_at");