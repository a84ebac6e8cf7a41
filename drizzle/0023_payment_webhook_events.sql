CREATE TABLE "payment_webhook_event" (
	"provider_id" text NOT NULL,
	"event_id" text NOT NULL,
	"action" text NOT NULL,
	"session_id" text NOT NULL,
	"reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "payment_webhook_event_provider_id_event_id_pk" PRIMARY KEY("provider_id","event_id")
);
