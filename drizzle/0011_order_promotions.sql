CREATE TABLE "order_promotion" (
	"order_id" text NOT NULL,
	"promotion_id" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "order_promotion_order_id_promotion_id_pk" PRIMARY KEY("order_id","promotion_id")
);
--> statement-breakpoint
ALTER TABLE "order_promotion" ADD CONSTRAINT "order_promotion_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_promotion_promotion_idx" ON "order_promotion" USING btree ("promotion_id");