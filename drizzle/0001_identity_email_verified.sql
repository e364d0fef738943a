ALTER TABLE "identities" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Google sign-in refused unverified addresses until this column existed, so every Google identity so far was verified.
UPDATE "identities" SET "email_verified" = true WHERE "provider" = 'google';
