-- Sort keys of the recent list (see db/schema/shipments.ts): the addressee (importer of record's
-- company) and the destination's name, set with the dashboard columns of 0011 and kept when a
-- party, a contact's company or a country's name changes.
DROP TRIGGER `shipments_home_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_after_insert` AFTER INSERT ON `shipments`
BEGIN
  UPDATE `shipments` SET
    `effective_date` = coalesce(NEW.`ship_date`, substr(NEW.`created_at`, 1, 10)),
    `destination_country_id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
    ),
    `destination_name` = (SELECT `name` FROM `countries` WHERE `id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
    )),
    `addressee` = (SELECT `company` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
  WHERE `id` = NEW.`id`;
  INSERT INTO `home_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1)
    ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
DROP TRIGGER `shipments_home_after_party_update`;
--> statement-breakpoint
-- Also fires for ON DELETE SET NULL when a party contact is deleted.
CREATE TRIGGER `shipments_home_after_party_update` AFTER UPDATE OF `ultimate_consignee_id`, `importer_of_record_id` ON `shipments`
BEGIN
  UPDATE `shipments` SET
    `destination_country_id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
    ),
    `destination_name` = (SELECT `name` FROM `countries` WHERE `id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
    )),
    `addressee` = (SELECT `company` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
DROP TRIGGER `contacts_country_to_shipment_destination`;
--> statement-breakpoint
CREATE TRIGGER `contacts_country_to_shipment_destination` AFTER UPDATE OF `country_id` ON `contacts`
BEGIN
  UPDATE `shipments` SET
    `destination_country_id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`importer_of_record_id`)
    ),
    `destination_name` = (SELECT `name` FROM `countries` WHERE `id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`importer_of_record_id`)
    ))
  WHERE `ultimate_consignee_id` = NEW.`id` OR `importer_of_record_id` = NEW.`id`;
END;
--> statement-breakpoint
-- The triggers above name the destination in the same UPDATE (a second UPDATE of the row per
-- shipment write doubled its cost); any other write of destination_country_id is named here.
CREATE TRIGGER `shipments_destination_name` AFTER UPDATE OF `destination_country_id` ON `shipments`
WHEN NEW.`destination_name` IS NOT (SELECT `name` FROM `countries` WHERE `id` = NEW.`destination_country_id`)
BEGIN
  UPDATE `shipments` SET `destination_name` = (SELECT `name` FROM `countries` WHERE `id` = NEW.`destination_country_id`)
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_company_to_shipment_addressee` AFTER UPDATE OF `company` ON `contacts`
WHEN OLD.`company` IS NOT NEW.`company`
BEGIN
  UPDATE `shipments` SET `addressee` = NEW.`company` WHERE `importer_of_record_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `countries_name_to_shipment_destination_name` AFTER UPDATE OF `name` ON `countries`
WHEN OLD.`name` IS NOT NEW.`name`
BEGIN
  UPDATE `shipments` SET `destination_name` = NEW.`name` WHERE `destination_country_id` = NEW.`id`;
END;
--> statement-breakpoint
-- home_counts (see db/schema/shipments.ts): a shipment counts under its workspace, status and
-- destination (0: none) in the four buckets of its effective_date while it has one and is not a
-- template (status 1). Each trigger moves exactly the row's own contribution, in the writing
-- transaction, whichever process writes: insert adds it, delete removes it, an update of a key
-- column removes the old one and adds the new one. The order the triggers fire in cannot matter. One
-- statement per bucket: each is a primary-key seek (a row-value IN over the buckets is not).
CREATE TRIGGER `shipments_home_counts_insert` AFTER INSERT ON `shipments`
WHEN NEW.`effective_date` IS NOT NULL AND NEW.`shipping_status_id` <> 1
BEGIN
  INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`) VALUES
    (NEW.`workspace_id`, 0, '', NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 1, substr(NEW.`effective_date`, 1, 4), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 2, substr(NEW.`effective_date`, 1, 7), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 3, substr(NEW.`effective_date`, 1, 10), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1)
    ON CONFLICT (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_counts_delete` AFTER DELETE ON `shipments`
WHEN OLD.`effective_date` IS NOT NULL AND OLD.`shipping_status_id` <> 1
BEGIN
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 0 AND `bucket` = ''
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 0 AND `bucket` = ''
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 1 AND `bucket` = substr(OLD.`effective_date`, 1, 4)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 1 AND `bucket` = substr(OLD.`effective_date`, 1, 4)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 2 AND `bucket` = substr(OLD.`effective_date`, 1, 7)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 2 AND `bucket` = substr(OLD.`effective_date`, 1, 7)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 3 AND `bucket` = substr(OLD.`effective_date`, 1, 10)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 3 AND `bucket` = substr(OLD.`effective_date`, 1, 10)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_counts_update_old` AFTER UPDATE OF `workspace_id`, `effective_date`, `shipping_status_id`, `destination_country_id` ON `shipments`
WHEN OLD.`effective_date` IS NOT NULL AND OLD.`shipping_status_id` <> 1 AND (OLD.`workspace_id` IS NOT NEW.`workspace_id` OR OLD.`effective_date` IS NOT NEW.`effective_date` OR OLD.`shipping_status_id` IS NOT NEW.`shipping_status_id` OR OLD.`destination_country_id` IS NOT NEW.`destination_country_id`)
BEGIN
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 0 AND `bucket` = ''
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 0 AND `bucket` = ''
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 1 AND `bucket` = substr(OLD.`effective_date`, 1, 4)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 1 AND `bucket` = substr(OLD.`effective_date`, 1, 4)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 2 AND `bucket` = substr(OLD.`effective_date`, 1, 7)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 2 AND `bucket` = substr(OLD.`effective_date`, 1, 7)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  UPDATE `home_counts` SET `n` = `n` - 1 WHERE `workspace_id` = OLD.`workspace_id` AND `level` = 3 AND `bucket` = substr(OLD.`effective_date`, 1, 10)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
  DELETE FROM `home_counts` WHERE `n` <= 0 AND `workspace_id` = OLD.`workspace_id` AND `level` = 3 AND `bucket` = substr(OLD.`effective_date`, 1, 10)
    AND `status_id` = OLD.`shipping_status_id` AND `destination_country_id` = coalesce(OLD.`destination_country_id`, 0);
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_counts_update_new` AFTER UPDATE OF `workspace_id`, `effective_date`, `shipping_status_id`, `destination_country_id` ON `shipments`
WHEN NEW.`effective_date` IS NOT NULL AND NEW.`shipping_status_id` <> 1 AND (OLD.`workspace_id` IS NOT NEW.`workspace_id` OR OLD.`effective_date` IS NOT NEW.`effective_date` OR OLD.`shipping_status_id` IS NOT NEW.`shipping_status_id` OR OLD.`destination_country_id` IS NOT NEW.`destination_country_id`)
BEGIN
  INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`) VALUES
    (NEW.`workspace_id`, 0, '', NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 1, substr(NEW.`effective_date`, 1, 4), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 2, substr(NEW.`effective_date`, 1, 7), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1),
    (NEW.`workspace_id`, 3, substr(NEW.`effective_date`, 1, 10), NEW.`shipping_status_id`, coalesce(NEW.`destination_country_id`, 0), 1)
    ON CONFLICT (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Shipments that existed before this migration.
UPDATE `shipments` SET
  `addressee` = (SELECT `company` FROM `contacts` WHERE `id` = `shipments`.`importer_of_record_id`),
  `destination_name` = (SELECT `name` FROM `countries` WHERE `id` = `shipments`.`destination_country_id`);
--> statement-breakpoint
INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`)
SELECT `workspace_id`, 0, '', `shipping_status_id`, coalesce(`destination_country_id`, 0), count(*)
FROM `shipments` WHERE `effective_date` IS NOT NULL AND `shipping_status_id` <> 1
GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`)
SELECT `workspace_id`, 1, substr(`effective_date`, 1, 4), `shipping_status_id`, coalesce(`destination_country_id`, 0), count(*)
FROM `shipments` WHERE `effective_date` IS NOT NULL AND `shipping_status_id` <> 1
GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`)
SELECT `workspace_id`, 2, substr(`effective_date`, 1, 7), `shipping_status_id`, coalesce(`destination_country_id`, 0), count(*)
FROM `shipments` WHERE `effective_date` IS NOT NULL AND `shipping_status_id` <> 1
GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO `home_counts` (`workspace_id`, `level`, `bucket`, `status_id`, `destination_country_id`, `n`)
SELECT `workspace_id`, 3, substr(`effective_date`, 1, 10), `shipping_status_id`, coalesce(`destination_country_id`, 0), count(*)
FROM `shipments` WHERE `effective_date` IS NOT NULL AND `shipping_status_id` <> 1
GROUP BY 1, 3, 4, 5;
