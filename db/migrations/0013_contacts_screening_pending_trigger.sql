-- A contact whose name, address or country changes needs a new screening: marked in the same
-- statement as the change, whichever path wrote it (the form, a CSV import, the CLI).
-- Recursive triggers are off, and screening_pending is not a watched column, so this runs once.
CREATE TRIGGER `contacts_screening_pending_on_change`
AFTER UPDATE OF `company`, `street`, `city`, `state_province`, `postal_code`, `country_id` ON `contacts`
FOR EACH ROW
WHEN NEW.`company` IS NOT OLD.`company`
  OR NEW.`street` IS NOT OLD.`street`
  OR NEW.`city` IS NOT OLD.`city`
  OR NEW.`state_province` IS NOT OLD.`state_province`
  OR NEW.`postal_code` IS NOT OLD.`postal_code`
  OR NEW.`country_id` IS NOT OLD.`country_id`
BEGIN
  UPDATE `contacts` SET `screening_pending` = 1 WHERE `id` = NEW.`id` AND `screening_pending` = 0;
END;--> statement-breakpoint
-- Existing contacts: only those with a screening newer than their last change count as screened;
-- the rest stay pending and the first sweep after the upgrade screens them.
UPDATE `contacts` SET `screening_pending` = 0
WHERE EXISTS (
  SELECT 1 FROM `contact_screening_results` r
  WHERE r.`contact_id` = `contacts`.`id` AND r.`created_at` >= `contacts`.`updated_at`
);
