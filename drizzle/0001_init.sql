CREATE TABLE "workflow_executions" (
	"id" text PRIMARY KEY NOT NULL,
	"workflow_id" text NOT NULL,
	"idempotency_key" text,
	"transaction_id" text NOT NULL,
	"state" text NOT NULL,
	"input" jsonb,
	"result" jsonb,
	"error" jsonb,
	"attempt" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"next_retry_at" timestamp with time zone,
	"dead_lettered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_step_runs" (
	"execution_id" text NOT NULL,
	"index" integer NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"compensation_attempts" integer DEFAULT 0 NOT NULL,
	"output" jsonb,
	"compensate_input" jsonb,
	"error" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"compensated_at" timestamp with time zone,
	CONSTRAINT "workflow_step_runs_execution_id_index_pk" PRIMARY KEY("execution_id","index")
);
--> statement-breakpoint
CREATE TABLE "api_key" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text,
	"token_hash" text NOT NULL,
	"redacted" text NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"created_by" text NOT NULL,
	"revoked_by" text,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "api_key_sales_channel" (
	"api_key_id" text NOT NULL,
	"sales_channel_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_key_sales_channel_api_key_id_sales_channel_id_pk" PRIMARY KEY("api_key_id","sales_channel_id")
);
--> statement-breakpoint
CREATE TABLE "auth_identity" (
	"id" text PRIMARY KEY NOT NULL,
	"app_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_one_time_token" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"actor_type" text NOT NULL,
	"provider" text NOT NULL,
	"auth_identity_id" text,
	"entity_id" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_identity" (
	"id" text PRIMARY KEY NOT NULL,
	"entity_id" text NOT NULL,
	"provider" text NOT NULL,
	"auth_identity_id" text NOT NULL,
	"user_metadata" jsonb,
	"provider_metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cart" (
	"id" text PRIMARY KEY NOT NULL,
	"region_id" text,
	"sales_channel_id" text,
	"customer_id" text,
	"currency_code" text NOT NULL,
	"email" text,
	"shipping_address" jsonb,
	"billing_address" jsonb,
	"promo_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"item_subtotal" bigint DEFAULT 0 NOT NULL,
	"item_tax_total" bigint DEFAULT 0 NOT NULL,
	"item_discount_total" bigint DEFAULT 0 NOT NULL,
	"item_total" bigint DEFAULT 0 NOT NULL,
	"shipping_subtotal" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_total" bigint DEFAULT 0 NOT NULL,
	"shipping_discount_total" bigint DEFAULT 0 NOT NULL,
	"shipping_total" bigint DEFAULT 0 NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"original_total" bigint DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cart_line_item" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"thumbnail" text,
	"quantity" integer NOT NULL,
	"unit_price" bigint NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"is_discountable" boolean DEFAULT true NOT NULL,
	"requires_shipping" boolean DEFAULT true NOT NULL,
	"variant_title" text NOT NULL,
	"variant_sku" text,
	"product_title" text NOT NULL,
	"product_handle" text,
	"product_collection_id" text,
	"product_category_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"product_tag_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tax_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"original_total" bigint DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cart_shipping_method" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"shipping_option_id" text NOT NULL,
	"shipping_profile_id" text,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tax_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"adjustments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"original_total" bigint DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "currency" (
	"code" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"symbol_native" text NOT NULL,
	"name" text NOT NULL,
	"decimal_digits" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"phone" text,
	"company_name" text,
	"has_account" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_address" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"address_name" text,
	"is_default_shipping" boolean DEFAULT false NOT NULL,
	"is_default_billing" boolean DEFAULT false NOT NULL,
	"company" text,
	"first_name" text,
	"last_name" text,
	"address_1" text,
	"address_2" text,
	"city" text,
	"country_code" text,
	"province" text,
	"postal_code" text,
	"phone" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_group" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_group_customer" (
	"customer_id" text NOT NULL,
	"customer_group_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fulfillment" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"location_id" text NOT NULL,
	"provider_id" text DEFAULT 'manual_manual' NOT NULL,
	"shipped_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"inventory_consumed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fulfillment_item" (
	"id" text PRIMARY KEY NOT NULL,
	"fulfillment_id" text NOT NULL,
	"line_item_id" text NOT NULL,
	"title" text NOT NULL,
	"sku" text,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shipping_option" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price_type" text DEFAULT 'flat' NOT NULL,
	"region_id" text,
	"stock_location_id" text,
	"service_zone_id" text,
	"shipping_profile_id" text NOT NULL,
	"provider_id" text DEFAULT 'manual_manual' NOT NULL,
	"data" jsonb,
	"rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"type" jsonb,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shipping_option_price" (
	"id" text PRIMARY KEY NOT NULL,
	"shipping_option_id" text NOT NULL,
	"currency_code" text,
	"region_id" text,
	"amount" bigint NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_profile" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inventory_item" (
	"id" text PRIMARY KEY NOT NULL,
	"sku" text,
	"title" text,
	"description" text,
	"thumbnail" text,
	"origin_country" text,
	"hs_code" text,
	"mid_code" text,
	"material" text,
	"weight" double precision,
	"length" double precision,
	"height" double precision,
	"width" double precision,
	"requires_shipping" boolean DEFAULT true NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inventory_item_variant" (
	"variant_id" text NOT NULL,
	"inventory_item_id" text NOT NULL,
	"required_quantity" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_item_variant_variant_id_inventory_item_id_pk" PRIMARY KEY("variant_id","inventory_item_id"),
	CONSTRAINT "inventory_item_variant_required_positive" CHECK ("inventory_item_variant"."required_quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "inventory_level" (
	"id" text PRIMARY KEY NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"stocked_quantity" integer DEFAULT 0 NOT NULL,
	"reserved_quantity" integer DEFAULT 0 NOT NULL,
	"incoming_quantity" integer DEFAULT 0 NOT NULL,
	"available_quantity" integer GENERATED ALWAYS AS (stocked_quantity - reserved_quantity) STORED NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "inventory_level_stocked_nonnegative" CHECK ("inventory_level"."stocked_quantity" >= 0),
	CONSTRAINT "inventory_level_reserved_nonnegative" CHECK ("inventory_level"."reserved_quantity" >= 0),
	CONSTRAINT "inventory_level_incoming_nonnegative" CHECK ("inventory_level"."incoming_quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reservation_item" (
	"id" text PRIMARY KEY NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"line_item_id" text,
	"description" text,
	"created_by" text,
	"allow_backorder" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "reservation_item_quantity_positive" CHECK ("reservation_item"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "notification" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"channel" text NOT NULL,
	"template" text NOT NULL,
	"data" jsonb NOT NULL,
	"secret_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"external_id" text,
	"resource_type" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order" (
	"id" text PRIMARY KEY NOT NULL,
	"display_id" integer GENERATED ALWAYS AS IDENTITY (sequence name "order_display_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text DEFAULT 'pending' NOT NULL,
	"payment_status" text DEFAULT 'not_paid' NOT NULL,
	"fulfillment_status" text DEFAULT 'not_fulfilled' NOT NULL,
	"cart_id" text,
	"customer_id" text,
	"email" text,
	"currency_code" text NOT NULL,
	"region_id" text,
	"sales_channel_id" text,
	"shipping_address" jsonb,
	"billing_address" jsonb,
	"payment_collection_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"item_subtotal" bigint DEFAULT 0 NOT NULL,
	"item_tax_total" bigint DEFAULT 0 NOT NULL,
	"item_discount_total" bigint DEFAULT 0 NOT NULL,
	"item_total" bigint DEFAULT 0 NOT NULL,
	"shipping_subtotal" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_total" bigint DEFAULT 0 NOT NULL,
	"shipping_discount_total" bigint DEFAULT 0 NOT NULL,
	"shipping_total" bigint DEFAULT 0 NOT NULL,
	"subtotal" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_change" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"action" text NOT NULL,
	"actor_type" text,
	"actor_id" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_line_item" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"cart_line_item_id" text,
	"variant_id" text,
	"product_id" text,
	"title" text NOT NULL,
	"subtitle" text,
	"thumbnail" text,
	"variant_title" text,
	"variant_sku" text,
	"product_title" text,
	"product_handle" text,
	"requires_shipping" boolean DEFAULT true NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" bigint NOT NULL,
	"subtotal" bigint NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint NOT NULL,
	"fulfilled_quantity" integer DEFAULT 0 NOT NULL,
	"shipped_quantity" integer DEFAULT 0 NOT NULL,
	"delivered_quantity" integer DEFAULT 0 NOT NULL,
	"return_requested_quantity" integer DEFAULT 0 NOT NULL,
	"return_received_quantity" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_return" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"location_id" text NOT NULL,
	"received_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_return_item" (
	"id" text PRIMARY KEY NOT NULL,
	"return_id" text NOT NULL,
	"line_item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"received_quantity" integer DEFAULT 0 NOT NULL,
	"reason_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_shipping_method" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"shipping_option_id" text,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"subtotal" bigint NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "return_reason" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_capture" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_collection_id" text NOT NULL,
	"payment_session_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"captured_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_collection" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text,
	"region_id" text,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"authorized_amount" bigint DEFAULT 0 NOT NULL,
	"captured_amount" bigint DEFAULT 0 NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'not_paid' NOT NULL,
	"completed_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_session" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_collection_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"context" jsonb,
	"authorized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_refund" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price" (
	"id" text PRIMARY KEY NOT NULL,
	"variant_id" text NOT NULL,
	"price_list_id" text,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"min_quantity" integer,
	"max_quantity" integer,
	"region_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_list" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_list_rule" (
	"id" text PRIMARY KEY NOT NULL,
	"price_list_id" text NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_preference" (
	"id" text PRIMARY KEY NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"description" text,
	"handle" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_giftcard" boolean DEFAULT false NOT NULL,
	"discountable" boolean DEFAULT true NOT NULL,
	"thumbnail" text,
	"external_id" text,
	"collection_id" text,
	"type_id" text,
	"weight" double precision,
	"length" double precision,
	"height" double precision,
	"width" double precision,
	"hs_code" text,
	"mid_code" text,
	"origin_country" text,
	"material" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_category" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"handle" text NOT NULL,
	"mpath" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_internal" boolean DEFAULT false NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"parent_category_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_category_product" (
	"product_id" text NOT NULL,
	"product_category_id" text NOT NULL,
	CONSTRAINT "product_category_product_product_id_product_category_id_pk" PRIMARY KEY("product_id","product_category_id")
);
--> statement-breakpoint
CREATE TABLE "product_collection" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"handle" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_image" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"url" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_option" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_option_value" (
	"id" text PRIMARY KEY NOT NULL,
	"option_id" text NOT NULL,
	"value" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_sales_channel" (
	"product_id" text NOT NULL,
	"sales_channel_id" text NOT NULL,
	CONSTRAINT "product_sales_channel_product_id_sales_channel_id_pk" PRIMARY KEY("product_id","sales_channel_id")
);
--> statement-breakpoint
CREATE TABLE "product_tag" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_tags" (
	"product_id" text NOT NULL,
	"product_tag_id" text NOT NULL,
	CONSTRAINT "product_tags_product_id_product_tag_id_pk" PRIMARY KEY("product_id","product_tag_id")
);
--> statement-breakpoint
CREATE TABLE "product_type" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_variant" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"sku" text,
	"barcode" text,
	"ean" text,
	"upc" text,
	"allow_backorder" boolean DEFAULT false NOT NULL,
	"manage_inventory" boolean DEFAULT true NOT NULL,
	"variant_rank" integer DEFAULT 0 NOT NULL,
	"weight" double precision,
	"length" double precision,
	"height" double precision,
	"width" double precision,
	"hs_code" text,
	"mid_code" text,
	"origin_country" text,
	"material" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_variant_option" (
	"variant_id" text NOT NULL,
	"option_value_id" text NOT NULL,
	CONSTRAINT "product_variant_option_variant_id_option_value_id_pk" PRIMARY KEY("variant_id","option_value_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_application_method" (
	"id" text PRIMARY KEY NOT NULL,
	"promotion_id" text NOT NULL,
	"type" text NOT NULL,
	"target_type" text NOT NULL,
	"allocation" text,
	"value" numeric NOT NULL,
	"currency_code" text,
	"max_quantity" integer,
	"apply_to_quantity" integer,
	"buy_rules_min_quantity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotion_campaign" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"campaign_identifier" text NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotion_campaign_budget" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"type" text NOT NULL,
	"limit" bigint,
	"used" bigint DEFAULT 0 NOT NULL,
	"currency_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotion" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"is_automatic" boolean DEFAULT false NOT NULL,
	"campaign_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotion_rule" (
	"id" text PRIMARY KEY NOT NULL,
	"promotion_id" text NOT NULL,
	"kind" text NOT NULL,
	"attribute" text NOT NULL,
	"operator" text NOT NULL,
	"description" text,
	"values" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "region" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency_code" text NOT NULL,
	"automatic_taxes" boolean DEFAULT true NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "region_country" (
	"iso_2" text PRIMARY KEY NOT NULL,
	"iso_3" text NOT NULL,
	"num_code" text NOT NULL,
	"name" text NOT NULL,
	"display_name" text NOT NULL,
	"region_id" text
);
--> statement-breakpoint
CREATE TABLE "region_payment_provider" (
	"region_id" text NOT NULL,
	"provider_id" text NOT NULL,
	CONSTRAINT "region_payment_provider_region_id_provider_id_pk" PRIMARY KEY("region_id","provider_id")
);
--> statement-breakpoint
CREATE TABLE "sales_channel" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sales_channel_stock_location" (
	"sales_channel_id" text NOT NULL,
	"stock_location_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_channel_stock_location_sales_channel_id_stock_location_id_pk" PRIMARY KEY("sales_channel_id","stock_location_id")
);
--> statement-breakpoint
CREATE TABLE "stock_location" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stock_location_address" (
	"id" text PRIMARY KEY NOT NULL,
	"address_1" text NOT NULL,
	"address_2" text,
	"company" text,
	"city" text,
	"country_code" text NOT NULL,
	"phone" text,
	"province" text,
	"postal_code" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tax_rate" (
	"id" text PRIMARY KEY NOT NULL,
	"tax_region_id" text NOT NULL,
	"rate" double precision,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_combinable" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tax_region" (
	"id" text PRIMARY KEY NOT NULL,
	"country_code" text NOT NULL,
	"province_code" text,
	"parent_id" text,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"avatar_url" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_key" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_content_type" text,
	"response_body" text,
	"locked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_key_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
ALTER TABLE "workflow_step_runs" ADD CONSTRAINT "workflow_step_runs_execution_id_workflow_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."workflow_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_sales_channel" ADD CONSTRAINT "api_key_sales_channel_api_key_id_api_key_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_key"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_identity" ADD CONSTRAINT "provider_identity_auth_identity_id_auth_identity_id_fk" FOREIGN KEY ("auth_identity_id") REFERENCES "public"."auth_identity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line_item" ADD CONSTRAINT "cart_line_item_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_shipping_method" ADD CONSTRAINT "cart_shipping_method_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_address" ADD CONSTRAINT "customer_address_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_group_customer" ADD CONSTRAINT "customer_group_customer_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_group_customer" ADD CONSTRAINT "customer_group_customer_customer_group_id_customer_group_id_fk" FOREIGN KEY ("customer_group_id") REFERENCES "public"."customer_group"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fulfillment_item" ADD CONSTRAINT "fulfillment_item_fulfillment_id_fulfillment_id_fk" FOREIGN KEY ("fulfillment_id") REFERENCES "public"."fulfillment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_option_price" ADD CONSTRAINT "shipping_option_price_shipping_option_id_shipping_option_id_fk" FOREIGN KEY ("shipping_option_id") REFERENCES "public"."shipping_option"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_item_variant" ADD CONSTRAINT "inventory_item_variant_inventory_item_id_inventory_item_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_level" ADD CONSTRAINT "inventory_level_inventory_item_id_inventory_item_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_item" ADD CONSTRAINT "reservation_item_inventory_item_id_inventory_item_id_fk" FOREIGN KEY ("inventory_item_id") REFERENCES "public"."inventory_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_change" ADD CONSTRAINT "order_change_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line_item" ADD CONSTRAINT "order_line_item_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_return" ADD CONSTRAINT "order_return_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_return_item" ADD CONSTRAINT "order_return_item_return_id_order_return_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."order_return"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipping_method" ADD CONSTRAINT "order_shipping_method_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_capture" ADD CONSTRAINT "payment_capture_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_payment_collection_id_payment_collection_id_fk" FOREIGN KEY ("payment_collection_id") REFERENCES "public"."payment_collection"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_session" ADD CONSTRAINT "payment_session_payment_collection_id_payment_collection_id_fk" FOREIGN KEY ("payment_collection_id") REFERENCES "public"."payment_collection"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refund" ADD CONSTRAINT "payment_refund_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_category_product" ADD CONSTRAINT "product_category_product_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_category_product" ADD CONSTRAINT "product_category_product_product_category_id_product_category_id_fk" FOREIGN KEY ("product_category_id") REFERENCES "public"."product_category"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_image" ADD CONSTRAINT "product_image_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_option" ADD CONSTRAINT "product_option_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_option_value" ADD CONSTRAINT "product_option_value_option_id_product_option_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."product_option"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sales_channel" ADD CONSTRAINT "product_sales_channel_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_tags" ADD CONSTRAINT "product_tags_product_tag_id_product_tag_id_fk" FOREIGN KEY ("product_tag_id") REFERENCES "public"."product_tag"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant" ADD CONSTRAINT "product_variant_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_option" ADD CONSTRAINT "product_variant_option_variant_id_product_variant_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."product_variant"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_option" ADD CONSTRAINT "product_variant_option_option_value_id_product_option_value_id_fk" FOREIGN KEY ("option_value_id") REFERENCES "public"."product_option_value"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_application_method" ADD CONSTRAINT "promotion_application_method_promotion_id_promotion_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_campaign_budget" ADD CONSTRAINT "promotion_campaign_budget_campaign_id_promotion_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."promotion_campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion" ADD CONSTRAINT "promotion_campaign_id_promotion_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."promotion_campaign"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_rule" ADD CONSTRAINT "promotion_rule_promotion_id_promotion_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_channel_stock_location" ADD CONSTRAINT "sales_channel_stock_location_stock_location_id_stock_location_id_fk" FOREIGN KEY ("stock_location_id") REFERENCES "public"."stock_location"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_executions_idempotency_uq" ON "workflow_executions" USING btree ("workflow_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "workflow_executions_state_idx" ON "workflow_executions" USING btree ("state","lease_expires_at");--> statement-breakpoint
CREATE INDEX "workflow_executions_next_retry_idx" ON "workflow_executions" USING btree ("next_retry_at");--> statement-breakpoint
CREATE INDEX "workflow_executions_transaction_idx" ON "workflow_executions" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "workflow_executions_created_idx" ON "workflow_executions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_token_hash_uq" ON "api_key" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_key_type_idx" ON "api_key" USING btree ("type");--> statement-breakpoint
CREATE INDEX "api_key_title_idx" ON "api_key" USING btree ("title");--> statement-breakpoint
CREATE INDEX "api_key_created_at_idx" ON "api_key" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_key_sales_channel_sales_channel_id_idx" ON "api_key_sales_channel" USING btree ("sales_channel_id");--> statement-breakpoint
CREATE INDEX "auth_identity_created_at_idx" ON "auth_identity" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_one_time_token_hash_uq" ON "auth_one_time_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_one_time_token_identity_idx" ON "auth_one_time_token" USING btree ("auth_identity_id");--> statement-breakpoint
CREATE INDEX "auth_one_time_token_expires_idx" ON "auth_one_time_token" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_identity_provider_entity_uq" ON "provider_identity" USING btree ("provider","entity_id");--> statement-breakpoint
CREATE INDEX "provider_identity_auth_identity_id_idx" ON "provider_identity" USING btree ("auth_identity_id");--> statement-breakpoint
CREATE INDEX "cart_customer_idx" ON "cart" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "cart_region_idx" ON "cart" USING btree ("region_id");--> statement-breakpoint
CREATE INDEX "cart_created_at_idx" ON "cart" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cart_line_item_cart_idx" ON "cart_line_item" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "cart_line_item_variant_idx" ON "cart_line_item" USING btree ("cart_id","variant_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "cart_shipping_method_cart_idx" ON "cart_shipping_method" USING btree ("cart_id");--> statement-breakpoint
CREATE UNIQUE INDEX "currency_default_uq" ON "currency" USING btree ("is_default") WHERE is_default;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_email_has_account_uq" ON "customer" USING btree ("email","has_account") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "customer_created_at_idx" ON "customer" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "customer_updated_at_idx" ON "customer" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "customer_address_customer_id_idx" ON "customer_address" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_address_default_shipping_uq" ON "customer_address" USING btree ("customer_id") WHERE is_default_shipping and deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_address_default_billing_uq" ON "customer_address" USING btree ("customer_id") WHERE is_default_billing and deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_group_name_uq" ON "customer_group" USING btree ("name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "customer_group_created_at_idx" ON "customer_group" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_group_customer_uq" ON "customer_group_customer" USING btree ("customer_group_id","customer_id");--> statement-breakpoint
CREATE INDEX "customer_group_customer_customer_idx" ON "customer_group_customer" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "fulfillment_order_idx" ON "fulfillment" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "fulfillment_location_idx" ON "fulfillment" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "fulfillment_item_fulfillment_idx" ON "fulfillment_item" USING btree ("fulfillment_id");--> statement-breakpoint
CREATE INDEX "fulfillment_item_line_idx" ON "fulfillment_item" USING btree ("line_item_id");--> statement-breakpoint
CREATE INDEX "shipping_option_region_idx" ON "shipping_option" USING btree ("region_id");--> statement-breakpoint
CREATE INDEX "shipping_option_profile_idx" ON "shipping_option" USING btree ("shipping_profile_id");--> statement-breakpoint
CREATE INDEX "shipping_option_location_idx" ON "shipping_option" USING btree ("stock_location_id");--> statement-breakpoint
CREATE INDEX "shipping_option_created_at_idx" ON "shipping_option" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "shipping_option_price_option_idx" ON "shipping_option_price" USING btree ("shipping_option_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_profile_name_uq" ON "shipping_profile" USING btree ("name") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_item_sku_uq" ON "inventory_item" USING btree ("sku") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "inventory_item_created_at_idx" ON "inventory_item" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inventory_item_title_idx" ON "inventory_item" USING btree ("title");--> statement-breakpoint
CREATE INDEX "inventory_item_search_trgm_idx" ON "inventory_item" USING gin ((coalesce("sku", '') || ' ' || coalesce("title", '') || ' ' || coalesce("description", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "inventory_item_variant_item_idx" ON "inventory_item_variant" USING btree ("inventory_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_level_item_location_uq" ON "inventory_level" USING btree ("inventory_item_id","location_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "inventory_level_location_idx" ON "inventory_level" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "reservation_item_inventory_item_idx" ON "reservation_item" USING btree ("inventory_item_id");--> statement-breakpoint
CREATE INDEX "reservation_item_location_idx" ON "reservation_item" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "reservation_item_line_item_idx" ON "reservation_item" USING btree ("line_item_id");--> statement-breakpoint
CREATE INDEX "reservation_item_created_at_idx" ON "reservation_item" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notification_status_idx" ON "notification" USING btree ("status");--> statement-breakpoint
CREATE INDEX "notification_to_idx" ON "notification" USING btree ("to");--> statement-breakpoint
CREATE INDEX "notification_created_at_idx" ON "notification" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_display_id_idx" ON "order" USING btree ("display_id");--> statement-breakpoint
CREATE INDEX "order_status_idx" ON "order" USING btree ("status");--> statement-breakpoint
CREATE INDEX "order_payment_status_idx" ON "order" USING btree ("payment_status");--> statement-breakpoint
CREATE INDEX "order_fulfillment_status_idx" ON "order" USING btree ("fulfillment_status");--> statement-breakpoint
CREATE INDEX "order_customer_idx" ON "order" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "order_email_idx" ON "order" USING btree ("email");--> statement-breakpoint
CREATE INDEX "order_region_idx" ON "order" USING btree ("region_id");--> statement-breakpoint
CREATE INDEX "order_sales_channel_idx" ON "order" USING btree ("sales_channel_id");--> statement-breakpoint
CREATE INDEX "order_cart_idx" ON "order" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "order_created_at_idx" ON "order" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_change_order_idx" ON "order_change" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_line_item_order_idx" ON "order_line_item" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_line_item_cart_line_idx" ON "order_line_item" USING btree ("cart_line_item_id");--> statement-breakpoint
CREATE INDEX "order_line_item_variant_idx" ON "order_line_item" USING btree ("variant_id");--> statement-breakpoint
CREATE INDEX "order_return_order_idx" ON "order_return" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_return_item_return_idx" ON "order_return_item" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "order_shipping_method_order_idx" ON "order_shipping_method" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "return_reason_value_uq" ON "return_reason" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "return_reason_created_at_idx" ON "return_reason" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_capture_payment_idx" ON "payment_capture" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_collection_idx" ON "payment" USING btree ("payment_collection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_session_uq" ON "payment" USING btree ("payment_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_collection_cart_uq" ON "payment_collection" USING btree ("cart_id") WHERE cart_id is not null and deleted_at is null;--> statement-breakpoint
CREATE INDEX "payment_session_collection_idx" ON "payment_session" USING btree ("payment_collection_id");--> statement-breakpoint
CREATE INDEX "payment_refund_payment_idx" ON "payment_refund" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "price_variant_id_idx" ON "price" USING btree ("variant_id","currency_code");--> statement-breakpoint
CREATE INDEX "price_price_list_id_idx" ON "price" USING btree ("price_list_id");--> statement-breakpoint
CREATE INDEX "price_list_status_idx" ON "price_list" USING btree ("status","type");--> statement-breakpoint
CREATE INDEX "price_list_created_at_idx" ON "price_list" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "price_list_rule_uq" ON "price_list_rule" USING btree ("price_list_id","attribute","value");--> statement-breakpoint
CREATE UNIQUE INDEX "price_preference_uq" ON "price_preference" USING btree ("attribute","value") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "product_handle_uq" ON "product" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_status_idx" ON "product" USING btree ("status");--> statement-breakpoint
CREATE INDEX "product_collection_idx" ON "product" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "product_type_idx" ON "product" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "product_is_giftcard_idx" ON "product" USING btree ("is_giftcard");--> statement-breakpoint
CREATE INDEX "product_created_at_idx" ON "product" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "product_search_trgm_idx" ON "product" USING gin ((coalesce("title", '') || ' ' || coalesce("subtitle", '') || ' ' || coalesce("description", '') || ' ' || coalesce("handle", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "product_category_handle_uq" ON "product_category" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_category_parent_idx" ON "product_category" USING btree ("parent_category_id");--> statement-breakpoint
CREATE INDEX "product_category_name_idx" ON "product_category" USING btree ("name");--> statement-breakpoint
CREATE INDEX "product_category_mpath_idx" ON "product_category" USING btree ("mpath" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "product_category_product_category_idx" ON "product_category_product" USING btree ("product_category_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_collection_handle_uq" ON "product_collection" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_collection_title_idx" ON "product_collection" USING btree ("title");--> statement-breakpoint
CREATE INDEX "product_collection_created_at_idx" ON "product_collection" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "product_image_product_idx" ON "product_image" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_option_product_idx" ON "product_option" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_title_uq" ON "product_option" USING btree ("product_id","title") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_option_value_option_idx" ON "product_option_value" USING btree ("option_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_value_uq" ON "product_option_value" USING btree ("option_id","value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_sales_channel_channel_idx" ON "product_sales_channel" USING btree ("sales_channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_tag_value_uq" ON "product_tag" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_tags_tag_idx" ON "product_tags" USING btree ("product_tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_type_value_uq" ON "product_type" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_variant_product_idx" ON "product_variant" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variant_sku_uq" ON "product_variant" USING btree ("sku") WHERE deleted_at is null and sku is not null;--> statement-breakpoint
CREATE INDEX "product_variant_sku_trgm_idx" ON "product_variant" USING gin ("sku" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "product_variant_option_value_idx" ON "product_variant_option" USING btree ("option_value_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_application_method_promotion_uq" ON "promotion_application_method" USING btree ("promotion_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_campaign_identifier_uq" ON "promotion_campaign" USING btree ("campaign_identifier") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "promotion_campaign_created_at_idx" ON "promotion_campaign" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_campaign_budget_campaign_uq" ON "promotion_campaign_budget" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_code_uq" ON "promotion" USING btree (lower("code")) WHERE deleted_at is null and code is not null;--> statement-breakpoint
CREATE INDEX "promotion_campaign_idx" ON "promotion" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "promotion_automatic_idx" ON "promotion" USING btree ("is_automatic");--> statement-breakpoint
CREATE INDEX "promotion_created_at_idx" ON "promotion" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "promotion_rule_promotion_idx" ON "promotion_rule" USING btree ("promotion_id","kind");--> statement-breakpoint
CREATE INDEX "region_name_idx" ON "region" USING btree ("name");--> statement-breakpoint
CREATE INDEX "region_currency_code_idx" ON "region" USING btree ("currency_code");--> statement-breakpoint
CREATE INDEX "region_created_at_idx" ON "region" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "region_country_region_id_idx" ON "region_country" USING btree ("region_id");--> statement-breakpoint
CREATE INDEX "region_payment_provider_provider_idx" ON "region_payment_provider" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "sales_channel_name_idx" ON "sales_channel" USING btree ("name");--> statement-breakpoint
CREATE INDEX "sales_channel_created_at_idx" ON "sales_channel" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_channel_default_uq" ON "sales_channel" USING btree ("is_default") WHERE is_default and deleted_at is null;--> statement-breakpoint
CREATE INDEX "sales_channel_stock_location_location_idx" ON "sales_channel_stock_location" USING btree ("stock_location_id");--> statement-breakpoint
CREATE INDEX "stock_location_name_idx" ON "stock_location" USING btree ("name");--> statement-breakpoint
CREATE INDEX "stock_location_name_trgm_idx" ON "stock_location" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stock_location_created_at_idx" ON "stock_location" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "stock_location_address_id_idx" ON "stock_location" USING btree ("address_id");--> statement-breakpoint
CREATE INDEX "tax_rate_tax_region_id_idx" ON "tax_rate" USING btree ("tax_region_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rate_default_uq" ON "tax_rate" USING btree ("tax_region_id") WHERE is_default and deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_region_country_uq" ON "tax_region" USING btree ("country_code") WHERE province_code is null and deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_region_province_uq" ON "tax_region" USING btree ("country_code","province_code") WHERE province_code is not null and deleted_at is null;--> statement-breakpoint
CREATE INDEX "tax_region_parent_id_idx" ON "tax_region" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_email_uq" ON "user" USING btree ("email") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "user_created_at_idx" ON "user" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "idempotency_key_expires_at_idx" ON "idempotency_key" USING btree ("expires_at");