ALTER TABLE "users" ADD COLUMN "free_plan_chosen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "plan_prompt_dismissed_month" text;