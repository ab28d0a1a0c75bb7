-- The dashboard reads two derived columns of shipments, kept here by triggers so its aggregates are
-- index-only scans of shipments_ws_home_idx (no join to contacts, no read of 100,000 rows):
--   effective_date: the ship date, else the UTC day the shipment was created;
--   destination_country_id: the ultimate consignee's country, else the importer of record's.
-- Every change the dashboard can see also raises the workspace's home_versions counter, under
-- which the home endpoints cache their answers.
CREATE TRIGGER `shipments_home_after_insert` AFTER INSERT ON `shipments`
BEGIN
  UPDATE `shipments` SET
    `effective_date` = coalesce(NEW.`ship_date`, substr(NEW.`created_at`, 1, 10)),
    `destination_country_id` = coalesce(
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
      (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
    )
  WHERE `id` = NEW.`id`;
  INSERT INTO `home_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1)
    ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_after_date_update` AFTER UPDATE OF `ship_date`, `created_at` ON `shipments`
BEGIN
  UPDATE `shipments` SET `effective_date` = coalesce(NEW.`ship_date`, substr(NEW.`created_at`, 1, 10))
  WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- Also fires for ON DELETE SET NULL when a party contact is deleted.
CREATE TRIGGER `shipments_home_after_party_update` AFTER UPDATE OF `ultimate_consignee_id`, `importer_of_record_id` ON `shipments`
BEGIN
  UPDATE `shipments` SET `destination_country_id` = coalesce(
    (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`ultimate_consignee_id`),
    (SELECT `country_id` FROM `contacts` WHERE `id` = NEW.`importer_of_record_id`)
  ) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_country_to_shipment_destination` AFTER UPDATE OF `country_id` ON `contacts`
BEGIN
  UPDATE `shipments` SET `destination_country_id` = coalesce(
    (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`ultimate_consignee_id`),
    (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`importer_of_record_id`)
  ) WHERE `ultimate_consignee_id` = NEW.`id` OR `importer_of_record_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_version_after_update` AFTER UPDATE ON `shipments`
BEGIN
  INSERT INTO `home_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1)
    ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `shipments_home_version_after_delete` AFTER DELETE ON `shipments`
BEGIN
  INSERT INTO `home_versions` (`workspace_id`, `version`) VALUES (OLD.`workspace_id`, 1)
    ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
-- A contact's company is a shipment's addressee and its country a destination.
CREATE TRIGGER `contacts_home_version_after_update` AFTER UPDATE ON `contacts`
BEGIN
  INSERT INTO `home_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1)
    ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1;
END;
--> statement-breakpoint
-- Shipments that existed before this migration.
UPDATE `shipments` SET
  `effective_date` = coalesce(`ship_date`, substr(`created_at`, 1, 10)),
  `destination_country_id` = coalesce(
    (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`ultimate_consignee_id`),
    (SELECT `country_id` FROM `contacts` WHERE `id` = `shipments`.`importer_of_record_id`)
  );
