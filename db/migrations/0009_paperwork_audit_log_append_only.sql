-- The paperwork audit log is append-only: export records must survive unchanged (15 CFR part 762).
CREATE TRIGGER `paperwork_audit_log_no_update` BEFORE UPDATE ON `paperwork_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'paperwork_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `paperwork_audit_log_no_delete` BEFORE DELETE ON `paperwork_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'paperwork_audit_log is append-only');
END;
