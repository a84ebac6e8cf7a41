CREATE TABLE "stock_location_provider_exclusion" (
	"stock_location_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_location_provider_exclusion_stock_location_id_provider_id_pk" PRIMARY KEY("stock_location_id","provider_id")
);
--> statement-breakpoint
ALTER TABLE "stock_location_provider_exclusion" ADD CONSTRAINT "stock_location_provider_exclusion_stock_location_id_stock_location_id_fk" FOREIGN KEY ("stock_location_id") REFERENCES "public"."stock_location"("id") ON DELETE cascade ON UPDATE no action;