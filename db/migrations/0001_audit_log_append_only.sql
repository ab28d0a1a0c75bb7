-- The screening audit log is append-only: export rules require the record to survive unchanged.
CREATE TRIGGER `screening_audit_log_no_update` BEFORE UPDATE ON `screening_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'screening_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `screening_audit_log_no_delete` BEFORE DELETE ON `screening_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'screening_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `contact_screening_results_no_update` BEFORE UPDATE ON `contact_screening_results`
BEGIN
  SELECT RAISE(ABORT, 'contact_screening_results are never edited; an override adds a new result');
END;
