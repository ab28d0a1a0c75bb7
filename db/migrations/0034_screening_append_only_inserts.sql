-- The append-only guards of 0001 and 0032 fire on UPDATE and DELETE, but INSERT OR REPLACE deletes
-- the row it replaces without firing a DELETE trigger (recursive triggers are off): it could rewrite
-- an audit row, or give a set of lists a new id and leave every screening naming the old one.
-- These refuse an insert onto an existing row. Every result and audit row must also name the lists
-- it was screened against: the column is nullable only because SQLite cannot add NOT NULL to a
-- table without rebuilding it.
CREATE TRIGGER `screening_list_sets_no_replace` BEFORE INSERT ON `screening_list_sets`
BEGIN
  SELECT RAISE(ABORT, 'screening_list_sets is append-only')
  WHERE EXISTS (SELECT 1 FROM `screening_list_sets` WHERE `id` = NEW.`id` OR `lists` = NEW.`lists`);
END;
--> statement-breakpoint
CREATE TRIGGER `screening_audit_log_insert_guard` BEFORE INSERT ON `screening_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'screening_audit_log is append-only')
  WHERE EXISTS (SELECT 1 FROM `screening_audit_log` WHERE `id` = NEW.`id`);
  SELECT RAISE(ABORT, 'a screening must name the lists it used (list_set_id)')
  WHERE NEW.`list_set_id` IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `contact_screening_results_insert_guard` BEFORE INSERT ON `contact_screening_results`
BEGIN
  SELECT RAISE(ABORT, 'contact_screening_results are never edited; an override adds a new result')
  WHERE EXISTS (SELECT 1 FROM `contact_screening_results` WHERE `id` = NEW.`id`);
  SELECT RAISE(ABORT, 'a screening must name the lists it used (list_set_id)')
  WHERE NEW.`list_set_id` IS NULL;
END;
