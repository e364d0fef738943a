-- Audit rows are immutable (issue 18; the admin panel says so, SPEC 2). The database refuses any
-- UPDATE or DELETE of audit_events unless the transaction declared one of the two named maintenance
-- paths (src/server/audit/audit-maintenance.ts) with
--   select set_config('inbox_guard.audit_maintenance', 'purge' | 'redaction', true)
-- 'purge' (the seven-year retention purge) may only delete; 'redaction' (the admin's token
-- redaction) may only rewrite the metadata column. TRUNCATE is always refused: the purge deletes by
-- age, never everything. current_setting(..., true) is NULL when the setting was never made in this
-- session and '' once the transaction that made it has ended.
CREATE FUNCTION "audit_events_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  maintenance text := coalesce(current_setting('inbox_guard.audit_maintenance', true), '');
BEGIN
  IF TG_OP = 'DELETE' AND maintenance = 'purge' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND maintenance = 'redaction' THEN
    IF (to_jsonb(NEW) - 'metadata') IS DISTINCT FROM (to_jsonb(OLD) - 'metadata') THEN
      RAISE EXCEPTION 'audit_events: a redaction may only change the metadata column'
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only: % refused outside audit maintenance', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Audit rows change only through withAuditMaintenance (purge or redaction).';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_immutable" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_guard"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_guard"();
