ALTER TABLE "order_claim_exchange" ADD COLUMN "payment_collection_id" text;--> statement-breakpoint
ALTER TABLE "order_claim_exchange" ADD COLUMN "canceled_by" text;--> statement-breakpoint
ALTER TABLE "order_return" ADD COLUMN "exchange_id" text;--> statement-breakpoint
ALTER TABLE "order_return" ADD COLUMN "claim_id" text;--> statement-breakpoint
-- Returns exchanges and claims took their inbound units on before the columns existed.
UPDATE "order_return" SET "exchange_id" = ce."id" FROM "order_claim_exchange" ce WHERE ce."return_id" = "order_return"."id" AND ce."kind" = 'exchange';--> statement-breakpoint
UPDATE "order_return" SET "claim_id" = ce."id" FROM "order_claim_exchange" ce WHERE ce."return_id" = "order_return"."id" AND ce."kind" = 'claim';
