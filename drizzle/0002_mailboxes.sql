CREATE TABLE "mailboxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"email_address" text NOT NULL,
	"status" text NOT NULL,
	"status_message" text,
	"access_token" text,
	"refresh_token" text,
	"token_expires_at" timestamp with time zone,
	"granted_scope" text,
	"sync_cursor" text,
	"push_subscription_id" text,
	"push_expires_at" timestamp with time zone,
	"push_client_state_hash" text,
	"last_push_at" timestamp with time zone,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"mailbox_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "mode" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_receipts" ADD CONSTRAINT "push_receipts_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_user_id_idx" ON "mailboxes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mailboxes_email_lower_idx" ON "mailboxes" USING btree (lower("email_address"));--> statement-breakpoint
CREATE INDEX "mailboxes_push_subscription_idx" ON "mailboxes" USING btree ("push_subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_receipts_source_key_idx" ON "push_receipts" USING btree ("source","dedupe_key");--> statement-breakpoint
CREATE INDEX "push_receipts_mailbox_received_idx" ON "push_receipts" USING btree ("mailbox_id","received_at");--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;