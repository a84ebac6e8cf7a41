CREATE TABLE "order_transfer_request" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"email" text,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "cart" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "order_transfer_request" ADD CONSTRAINT "order_transfer_request_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_transfer_request_token_uq" ON "order_transfer_request" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "order_transfer_request_order_idx" ON "order_transfer_request" USING btree ("order_id","status");