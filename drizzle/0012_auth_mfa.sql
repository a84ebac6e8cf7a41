CREATE TABLE "auth_mfa_challenge" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_identity_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"auth_provider" text NOT NULL,
	"methods" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_mfa_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_identity_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"label" text,
	"secret" text NOT NULL,
	"last_used_step" integer,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_mfa_recovery_code" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_identity_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_mfa_challenge" ADD CONSTRAINT "auth_mfa_challenge_auth_identity_id_auth_identity_id_fk" FOREIGN KEY ("auth_identity_id") REFERENCES "public"."auth_identity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_mfa_factor" ADD CONSTRAINT "auth_mfa_factor_auth_identity_id_auth_identity_id_fk" FOREIGN KEY ("auth_identity_id") REFERENCES "public"."auth_identity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_mfa_recovery_code" ADD CONSTRAINT "auth_mfa_recovery_code_auth_identity_id_auth_identity_id_fk" FOREIGN KEY ("auth_identity_id") REFERENCES "public"."auth_identity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_mfa_challenge_identity_idx" ON "auth_mfa_challenge" USING btree ("auth_identity_id");--> statement-breakpoint
CREATE INDEX "auth_mfa_challenge_expires_idx" ON "auth_mfa_challenge" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_mfa_factor_identity_provider_uq" ON "auth_mfa_factor" USING btree ("auth_identity_id","provider");--> statement-breakpoint
CREATE INDEX "auth_mfa_recovery_code_identity_idx" ON "auth_mfa_recovery_code" USING btree ("auth_identity_id","code_hash");