CREATE TABLE "provider_health" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_name" text NOT NULL,
	"is_healthy" boolean DEFAULT true NOT NULL,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"circuit_open_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"mailbox_id" integer NOT NULL,
	"worker" text NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"decided" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "push_renewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "push_error" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "heartbeat_status" text;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD COLUMN "sync_backoff_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_health_service_idx" ON "provider_health" USING btree ("service_name");--> statement-breakpoint
CREATE INDEX "sync_runs_mailbox_started_idx" ON "sync_runs" USING btree ("mailbox_id","started_at");