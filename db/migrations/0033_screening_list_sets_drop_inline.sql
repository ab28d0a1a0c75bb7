-- Every row now names its lists by list_set_id (0032 copied each inline value there, byte for byte).
ALTER TABLE `contact_screening_results` DROP COLUMN `lists`;--> statement-breakpoint
ALTER TABLE `screening_audit_log` DROP COLUMN `lists`;