CREATE INDEX "decisions_decided_idx" ON "decisions" USING btree ("decided_at");--> statement-breakpoint
CREATE INDEX "push_receipts_received_idx" ON "push_receipts" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "sync_runs_started_idx" ON "sync_runs" USING btree ("started_at");