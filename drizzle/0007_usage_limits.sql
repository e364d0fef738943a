ALTER TABLE "billing_accounts" ADD COLUMN "past_due_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usage_counts" ADD COLUMN "emails_left_alone" integer DEFAULT 0 NOT NULL;