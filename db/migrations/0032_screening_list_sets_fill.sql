-- Every screening so far carried its lists (sources, versions, checksums) inline, the same JSON in
-- each result, audit row and screenings-list row. Each distinct set is now stored once, in
-- screening_list_sets, and the rows point at it (list_set_id). The text is kept byte for byte: a
-- set holds exactly the JSON the rows held, so the audit trail reads the same before and after.
-- The next migration drops the inline columns of the two append-only tables.
INSERT OR IGNORE INTO `screening_list_sets` (`lists`, `created_at`)
  SELECT `lists`, min(`created_at`) FROM `contact_screening_results` GROUP BY `lists`;
--> statement-breakpoint
INSERT OR IGNORE INTO `screening_list_sets` (`lists`, `created_at`)
  SELECT `lists`, min(`created_at`) FROM `screening_audit_log` GROUP BY `lists`;
--> statement-breakpoint
INSERT OR IGNORE INTO `screening_list_sets` (`lists`, `created_at`)
  SELECT `results` -> '$.lists', min(`created_at`) FROM `rpscreenings`
  WHERE json_valid(`results`) AND json_type(`results`, '$.lists') = 'array' GROUP BY `results` -> '$.lists';
--> statement-breakpoint
-- Results and the audit log refuse updates (migration 0001); this one fills the new column only,
-- and puts the guards back at once.
DROP TRIGGER `screening_audit_log_no_update`;
--> statement-breakpoint
DROP TRIGGER `contact_screening_results_no_update`;
--> statement-breakpoint
UPDATE `contact_screening_results` SET `list_set_id` =
  (SELECT s.`id` FROM `screening_list_sets` s WHERE s.`lists` = `contact_screening_results`.`lists`);
--> statement-breakpoint
UPDATE `screening_audit_log` SET `list_set_id` =
  (SELECT s.`id` FROM `screening_list_sets` s WHERE s.`lists` = `screening_audit_log`.`lists`);
--> statement-breakpoint
CREATE TRIGGER `screening_audit_log_no_update` BEFORE UPDATE ON `screening_audit_log`
BEGIN
  SELECT RAISE(ABORT, 'screening_audit_log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `contact_screening_results_no_update` BEFORE UPDATE ON `contact_screening_results`
BEGIN
  SELECT RAISE(ABORT, 'contact_screening_results are never edited; an override adds a new result');
END;
--> statement-breakpoint
-- The screenings list is current state (updated on every re-screen): its lists move out of the
-- results JSON, which keeps the matches, the score and the rest.
UPDATE `rpscreenings` SET
  `list_set_id` = (SELECT s.`id` FROM `screening_list_sets` s WHERE s.`lists` = `rpscreenings`.`results` -> '$.lists'),
  `results` = json_remove(`results`, '$.lists')
WHERE json_valid(`results`) AND json_type(`results`, '$.lists') = 'array';
--> statement-breakpoint
CREATE TRIGGER `screening_list_sets_no_update` BEFORE UPDATE ON `screening_list_sets`
BEGIN
  SELECT RAISE(ABORT, 'screening_list_sets is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `screening_list_sets_no_delete` BEFORE DELETE ON `screening_list_sets`
BEGIN
  SELECT RAISE(ABORT, 'screening_list_sets is append-only');
END;
