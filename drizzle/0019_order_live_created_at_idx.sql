DROP INDEX "order_created_at_idx";--> statement-breakpoint
CREATE INDEX "order_live_created_at_idx" ON "order" USING btree ("created_at","id") WHERE deleted_at is null;