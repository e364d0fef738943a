CREATE TABLE "correspondence_cache" (
	"mailbox_id" integer NOT NULL,
	"subject" text NOT NULL,
	"has_written" boolean NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "correspondence_cache_mailbox_id_subject_pk" PRIMARY KEY("mailbox_id","subject")
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"mailbox_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sender_address" text NOT NULL,
	"sender_name" text,
	"subject" text NOT NULL,
	"category" text NOT NULL,
	"confidence" real NOT NULL,
	"action" text NOT NULL,
	"state" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"decided_by" text NOT NULL,
	"applied_at" timestamp with time zone,
	"apply_attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_list_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_failures" (
	"mailbox_id" integer NOT NULL,
	"provider_message_id" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_error" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_failures_mailbox_id_provider_message_id_pk" PRIMARY KEY("mailbox_id","provider_message_id")
);
--> statement-breakpoint
CREATE TABLE "sender_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"action" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_counts" (
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"emails_processed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counts_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"filtering_enabled" boolean NOT NULL,
	"confidence_threshold" real NOT NULL,
	"strictness_level" text NOT NULL,
	"allow_informational" boolean NOT NULL,
	"allow_promotional" boolean NOT NULL,
	"allow_transactional" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "last_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "last_processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "correspondence_cache" ADD CONSTRAINT "correspondence_cache_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_list_entries" ADD CONSTRAINT "domain_list_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_failures" ADD CONSTRAINT "message_failures_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_rules" ADD CONSTRAINT "sender_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_counts" ADD CONSTRAINT "usage_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decisions_mailbox_message_idx" ON "decisions" USING btree ("mailbox_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "decisions_user_decided_idx" ON "decisions" USING btree ("user_id","decided_at");--> statement-breakpoint
CREATE INDEX "decisions_pending_idx" ON "decisions" USING btree ("mailbox_id","applied_at");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_list_entries_user_kind_domain_idx" ON "domain_list_entries" USING btree ("user_id","kind","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_rules_user_address_idx" ON "sender_rules" USING btree ("user_id","address");