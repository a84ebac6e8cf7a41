ALTER TABLE "order_return" ADD COLUMN "shipping" jsonb;--> statement-breakpoint
ALTER TABLE "order_return_change" ADD COLUMN "shipping" jsonb;