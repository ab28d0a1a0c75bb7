-- The settings audit log is append-only like the screening audit log (0001, 0034): a change to a
-- release control must stay on record unchanged, and INSERT OR REPLACE must not rewrite a row.
CREATE TRIGGER `settings_audit_log_no_update` BEFORE UPDATE ON `settings_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'settings_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `settings_audit_log_no_delete` BEFORE DELETE ON `settings_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'settings_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `settings_audit_log_insert_guard` BEFORE INSERT ON `settings_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'settings_audit_log is append-only')
  WHERE EXISTS (SELECT 1 FROM `settings_audit_log` WHERE `id` = NEW.`id`);
END;
