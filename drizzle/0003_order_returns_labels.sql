ALTER TABLE "fulfillment" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order_return" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "order_payment_collections_idx" ON "order" USING gin ("payment_collection_ids");