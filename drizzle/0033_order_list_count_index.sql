DROP INDEX "order_live_created_at_idx";--> statement-breakpoint
CREATE INDEX "order_live_created_at_status_idx" ON "order" USING btree ("created_at","id","status") WHERE deleted_at is null;