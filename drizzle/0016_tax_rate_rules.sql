CREATE TABLE "tax_rate_rule" (
	"id" text PRIMARY KEY NOT NULL,
	"tax_rate_id" text NOT NULL,
	"reference" text NOT NULL,
	"reference_id" text NOT NULL,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cart_line_item" ADD COLUMN "product_type_id" text;--> statement-breakpoint
ALTER TABLE "tax_rate_rule" ADD CONSTRAINT "tax_rate_rule_tax_rate_id_tax_rate_id_fk" FOREIGN KEY ("tax_rate_id") REFERENCES "public"."tax_rate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rate_rule_uq" ON "tax_rate_rule" USING btree ("tax_rate_id","reference","reference_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "tax_rate_rule_reference_idx" ON "tax_rate_rule" USING btree ("reference","reference_id");