CREATE TABLE "refund_reason" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "payment_refund" ADD COLUMN "refund_reason_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_reason_code_uq" ON "refund_reason" USING btree ("code") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "refund_reason_created_at_idx" ON "refund_reason" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "payment_refund" ADD CONSTRAINT "payment_refund_refund_reason_id_refund_reason_id_fk" FOREIGN KEY ("refund_reason_id") REFERENCES "public"."refund_reason"("id") ON DELETE no action ON UPDATE no action;