ALTER TABLE "provider_identity" ADD COLUMN "verified_email" text;--> statement-breakpoint
-- Google identities were only ever created with an address Google verified (an unverified one was
-- refused): their address is proven. Every other sign-in proves its address from now on (a password
-- reset, a confirmed email change, the next OAuth sign-in).
UPDATE "provider_identity" SET "verified_email" = lower("user_metadata"->>'email')
WHERE "provider" = 'google' AND "user_metadata"->>'email' IS NOT NULL;
