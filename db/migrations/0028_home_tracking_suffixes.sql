-- The recent list's tracking-number filter (an infix match on either number, ASCII letters in any
-- case, like LIKE '%x%') counted from an index instead of a scan of every shipment: each suffix of
-- at least three characters of each tracking number, upper-cased the way upper() and LIKE fold
-- (ASCII only), with the shipment's dashboard date and status. A value of three or more ASCII
-- characters occurs in a number exactly when some suffix starts with it, so its matches are one
-- range of this table's key (server/features/home/home.service.ts, trackingMatches).
-- Numbers longer than 1026 characters get a marker row (suffix '') instead, and while the
-- workspace has one the filter scans as before. Kept by triggers on every shipment insert, delete
-- and change of the numbers, date or status, from any process. Triggers cannot use WITH, so the
-- positions come from a table of numbers. There is no index by shipment (it would double the
-- cost of every insert): a shipment's rows are found by their keys, recomputed from its numbers.
CREATE TABLE `home_numbers` (`n` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `home_numbers` (`n`) WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1024) SELECT n FROM c;
--> statement-breakpoint
CREATE TABLE `home_tracking_suffixes` (
  `workspace_id` integer NOT NULL,
  `suffix` text NOT NULL,
  `shipment_id` integer NOT NULL,
  `which` integer NOT NULL,
  `effective_date` text,
  `shipping_status_id` integer NOT NULL,
  PRIMARY KEY (`workspace_id`, `suffix`, `shipment_id`, `which`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
  SELECT s.`workspace_id`, substr(upper(s.`tracking_number_1`), n.`n`), s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
  FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_1`) - 2
  UNION ALL
  SELECT s.`workspace_id`, substr(upper(s.`tracking_number_2`), n.`n`), s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
  FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_2`) - 2
  UNION ALL
  SELECT s.`workspace_id`, '', s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
  FROM `shipments` s WHERE length(s.`tracking_number_1`) - 2 > 1024
  UNION ALL
  SELECT s.`workspace_id`, '', s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
  FROM `shipments` s WHERE length(s.`tracking_number_2`) - 2 > 1024;
--> statement-breakpoint
-- The rows read the shipment as it is now, not NEW: the dashboard's date is set by another AFTER
-- INSERT trigger, and whichever runs first, the last word is the date update's trigger below.
CREATE TRIGGER `shipments_tracking_suffixes_insert` AFTER INSERT ON `shipments`
BEGIN
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, substr(upper(s.`tracking_number_1`), n.`n`), s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_1`) - 2 WHERE s.`id` = NEW.`id`;
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, '', s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s WHERE s.`id` = NEW.`id` AND length(s.`tracking_number_1`) - 2 > 1024;
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, substr(upper(s.`tracking_number_2`), n.`n`), s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_2`) - 2 WHERE s.`id` = NEW.`id`;
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, '', s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s WHERE s.`id` = NEW.`id` AND length(s.`tracking_number_2`) - 2 > 1024;
END;
--> statement-breakpoint
-- The old rows are found by the old number's suffixes (in either workspace, should the same
-- statement move the shipment); the new ones read the shipment as it is now (with its current
-- date and status, whichever trigger ran first).
CREATE TRIGGER `shipments_tracking_suffixes_number_1` AFTER UPDATE OF `tracking_number_1` ON `shipments`
WHEN OLD.`tracking_number_1` IS NOT NEW.`tracking_number_1`
BEGIN
  DELETE FROM `home_tracking_suffixes` WHERE `workspace_id` IN (OLD.`workspace_id`, NEW.`workspace_id`) AND `shipment_id` = OLD.`id` AND `which` = 1
    AND `suffix` IN (SELECT substr(upper(OLD.`tracking_number_1`), `n`) FROM `home_numbers` WHERE `n` <= length(OLD.`tracking_number_1`) - 2
      UNION ALL SELECT '');
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, substr(upper(s.`tracking_number_1`), n.`n`), s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_1`) - 2 WHERE s.`id` = NEW.`id`;
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, '', s.`id`, 1, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s WHERE s.`id` = NEW.`id` AND length(s.`tracking_number_1`) - 2 > 1024;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_tracking_suffixes_number_2` AFTER UPDATE OF `tracking_number_2` ON `shipments`
WHEN OLD.`tracking_number_2` IS NOT NEW.`tracking_number_2`
BEGIN
  DELETE FROM `home_tracking_suffixes` WHERE `workspace_id` IN (OLD.`workspace_id`, NEW.`workspace_id`) AND `shipment_id` = OLD.`id` AND `which` = 2
    AND `suffix` IN (SELECT substr(upper(OLD.`tracking_number_2`), `n`) FROM `home_numbers` WHERE `n` <= length(OLD.`tracking_number_2`) - 2
      UNION ALL SELECT '');
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, substr(upper(s.`tracking_number_2`), n.`n`), s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s JOIN `home_numbers` n ON n.`n` <= length(s.`tracking_number_2`) - 2 WHERE s.`id` = NEW.`id`;
  INSERT INTO `home_tracking_suffixes` (`workspace_id`, `suffix`, `shipment_id`, `which`, `effective_date`, `shipping_status_id`)
    SELECT s.`workspace_id`, '', s.`id`, 2, s.`effective_date`, s.`shipping_status_id`
    FROM `shipments` s WHERE s.`id` = NEW.`id` AND length(s.`tracking_number_2`) - 2 > 1024;
END;
--> statement-breakpoint
-- The rows of the numbers the shipment has now. When the same statement also changed a number and
-- that number's trigger has not run yet, the rows are still the old number's: they are not found
-- here, and that trigger replaces them with rows read after this change.
CREATE TRIGGER `shipments_tracking_suffixes_period` AFTER UPDATE OF `workspace_id`, `effective_date`, `shipping_status_id` ON `shipments`
WHEN OLD.`workspace_id` IS NOT NEW.`workspace_id` OR OLD.`effective_date` IS NOT NEW.`effective_date` OR OLD.`shipping_status_id` IS NOT NEW.`shipping_status_id`
BEGIN
  UPDATE `home_tracking_suffixes` SET `workspace_id` = NEW.`workspace_id`, `effective_date` = NEW.`effective_date`,
    `shipping_status_id` = NEW.`shipping_status_id`
  WHERE `workspace_id` = OLD.`workspace_id` AND `shipment_id` = OLD.`id`
    AND `suffix` IN (SELECT substr(upper(NEW.`tracking_number_1`), `n`) FROM `home_numbers` WHERE `n` <= length(NEW.`tracking_number_1`) - 2
      UNION ALL SELECT substr(upper(NEW.`tracking_number_2`), `n`) FROM `home_numbers` WHERE `n` <= length(NEW.`tracking_number_2`) - 2
      UNION ALL SELECT '');
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_tracking_suffixes_delete` AFTER DELETE ON `shipments`
BEGIN
  DELETE FROM `home_tracking_suffixes` WHERE `workspace_id` = OLD.`workspace_id` AND `shipment_id` = OLD.`id`
    AND `suffix` IN (SELECT substr(upper(OLD.`tracking_number_1`), `n`) FROM `home_numbers` WHERE `n` <= length(OLD.`tracking_number_1`) - 2
      UNION ALL SELECT substr(upper(OLD.`tracking_number_2`), `n`) FROM `home_numbers` WHERE `n` <= length(OLD.`tracking_number_2`) - 2
      UNION ALL SELECT '');
END;
