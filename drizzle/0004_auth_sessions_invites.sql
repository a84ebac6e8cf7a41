CREATE TABLE "invite" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"accepted" boolean DEFAULT false NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auth_identity" ADD COLUMN "credentials_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invite_token_hash_uq" ON "invite" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "invite_email_uq" ON "invite" USING btree ("email") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "invite_created_at_idx" ON "invite" USING btree ("created_at");