CREATE TABLE "order_claim_exchange" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"type" text,
	"change_id" text NOT NULL,
	"return_id" text NOT NULL,
	"difference_due" bigint,
	"refund_amount" bigint,
	"additional_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"no_notification" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_claim_exchange" ADD CONSTRAINT "order_claim_exchange_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_claim_exchange_order_idx" ON "order_claim_exchange" USING btree ("order_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "order_claim_exchange_change_uq" ON "order_claim_exchange" USING btree ("change_id");--> statement-breakpoint
CREATE INDEX "order_claim_exchange_return_idx" ON "order_claim_exchange" USING btree ("return_id");